import base64


def images(outputs):
    return [o for o in outputs if "image/png" in o.get("data", {})]


def test_show_emits_and_closes(kernel):
    status, outputs = kernel.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()\nlen(plt.get_fignums())")
    assert status == "ok"
    assert len(images(outputs)) == 1
    assert outputs[-1]["data"]["text/plain"] == "0"
    assert base64.b64decode(images(outputs)[0]["data"]["image/png"]).startswith(b"\x89PNG")


def test_open_figures_are_emitted_at_the_end_in_order(kernel):
    code = (
        "import matplotlib.pyplot as plt\n"
        "a = plt.figure(figsize=(2, 2)); plt.plot([1])\n"
        "b = plt.figure(figsize=(4, 2)); plt.plot([2])\n"
        "print('done')"
    )
    _, outputs = kernel.run(code)
    assert outputs[0]["output_type"] == "stream"
    figures = images(outputs)
    assert len(figures) == 2
    assert [f["data"]["text/plain"].split()[2] for f in figures] == ["200x200", "400x200"]


def test_figure_as_last_expression_is_shown_once(kernel):
    _, outputs = kernel.run("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2])\nfig")
    assert len(images(outputs)) == 1
    assert images(outputs)[0]["output_type"] == "execute_result"


def test_display_figure_then_end_of_run_does_not_repeat(kernel):
    _, outputs = kernel.run("import matplotlib.pyplot as plt\nfig = plt.figure(); plt.plot([1])\ndisplay(fig)")
    assert len(images(outputs)) == 1


def test_savefig_to_output_still_works(kernel):
    code = f"import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig({str(kernel.output_dir / 'x.png')!r})"
    _, outputs = kernel.run(code)
    files = [o for o in outputs if o["output_type"] == "file"]
    assert files == [{"output_type": "file", "name": "x.png", "size": files[0]["size"], "mediaType": "image/png"}]
    assert (kernel.output_dir / "x.png").read_bytes().startswith(b"\x89PNG")


def test_large_figure_is_downscaled_under_the_cap(make_kernel):
    harness = make_kernel(imageBytes=30_000)
    code = (
        "import matplotlib.pyplot as plt, random\n"
        "random.seed(1)\n"
        "fig = plt.figure(figsize=(12, 9))\n"
        "plt.scatter([random.random() for _ in range(3000)], [random.random() for _ in range(3000)], s=2)\n"
    )
    _, outputs = harness.run(code)
    (figure,) = images(outputs)
    assert len(base64.b64decode(figure["data"]["image/png"])) <= 30_000


def test_error_after_plot_still_shows_the_figure(kernel):
    status, outputs = kernel.run("import matplotlib.pyplot as plt\nplt.plot([1])\n1/0")
    assert status == "error"
    assert len(images(outputs)) == 1
