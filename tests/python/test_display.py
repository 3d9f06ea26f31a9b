import base64

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def test_display_builtin_shows_text(kernel):
    status, outputs = kernel.run("display(1, 'two')")
    assert status == "ok"
    assert [o["data"]["text/plain"] for o in outputs] == ["1", "'two'"]
    assert all(o["output_type"] == "display_data" for o in outputs)


def test_display_is_importable(kernel):
    assert kernel.run("from runpad import display\ndisplay(3)")[1][0]["data"] == {"text/plain": "3"}


def test_repr_png_bytes(kernel):
    code = f"class Img:\n    def _repr_png_(self):\n        return {PNG!r}\nImg()"
    _, outputs = kernel.run(code)
    (result,) = outputs
    assert result["output_type"] == "execute_result"
    assert base64.b64decode(result["data"]["image/png"]) == PNG
    assert "text/plain" in result["data"]


def test_repr_markdown_and_no_html(kernel):
    code = (
        "class Doc:\n"
        "    def _repr_markdown_(self): return '# Title'\n"
        "    def _repr_html_(self): return '<script>alert(1)</script>'\n"
        "display(Doc())"
    )
    data = kernel.run(code)[1][0]["data"]
    assert data["text/markdown"] == "# Title"
    assert "text/html" not in data


def test_mimebundle_is_filtered(kernel):
    code = (
        "class B:\n"
        "    def _repr_mimebundle_(self, include=None, exclude=None):\n"
        "        return {'text/markdown': '*hi*', 'text/html': '<b>hi</b>', 'application/x-evil': 1}\n"
        "B()"
    )
    data = kernel.run(code)[1][0]["data"]
    assert data["text/markdown"] == "*hi*"
    assert set(data) == {"text/markdown", "text/plain"}


def test_broken_repr_falls_back(kernel):
    code = (
        "class Broken:\n"
        "    def _repr_png_(self): raise RuntimeError('nope')\n"
        "    def __repr__(self): return 'Broken()'\n"
        "Broken()"
    )
    status, outputs = kernel.run(code)
    assert status == "ok"
    assert outputs[0]["data"] == {"text/plain": "Broken()"}


def test_image_count_cap(make_kernel):
    harness = make_kernel(imagesPerRun=3)
    code = f"class Img:\n    def _repr_png_(self): return {PNG!r}\nfor _ in range(10): display(Img())"
    _, outputs = harness.run(code)
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3
    assert "7 more images were not shown" in "".join(o.get("text", "") for o in outputs)


def test_image_size_cap(make_kernel):
    harness = make_kernel(imageBytes=10)
    code = f"class Img:\n    def _repr_png_(self): return {PNG!r}\ndisplay(Img())"
    _, outputs = harness.run(code)
    assert not any("image/png" in o.get("data", {}) for o in outputs)
    assert "was not shown" in "".join(o.get("text", "") for o in outputs)


def test_text_cap(make_kernel):
    harness = make_kernel(textChars=100)
    data = harness.run("'a' * 1000")[1][0]["data"]
    assert len(data["text/plain"]) < 200 and "more characters not shown" in data["text/plain"]


def test_files_written_under_output(kernel):
    _, outputs = kernel.run(
        "import os\nwith open(os.path.join(OUT, 'result.csv'), 'w') as f: f.write('a,b\\n1,2\\n')".replace(
            "OUT", repr(str(kernel.output_dir))
        )
    )
    assert outputs == [{"output_type": "file", "name": "result.csv", "size": 8, "mediaType": "text/csv"}]
    # unchanged files are not reported again
    assert kernel.run("1;")[1] == []


def test_dot_source_passes_through_raw_display(kernel):
    code = "display({'text/vnd.graphviz': 'digraph { a -> b }', 'text/html': '<b>x</b>'}, raw=True)"
    data = kernel.run(code)[1][0]["data"]
    assert data == {"text/vnd.graphviz": "digraph { a -> b }", "text/plain": "<Graphviz diagram>"}


def test_dot_source_from_repr_mimebundle_keeps_its_text(kernel):
    code = (
        "class Graph:\n"
        "    def _repr_mimebundle_(self, include=None, exclude=None):\n"
        "        return {'text/vnd.graphviz': 'graph { x -- y }', 'text/plain': 'Graph(2 nodes)'}\n"
        "Graph()"
    )
    data = kernel.run(code)[1][0]["data"]
    assert data == {"text/vnd.graphviz": "graph { x -- y }", "text/plain": "Graph(2 nodes)"}


def test_dot_source_over_the_text_cap_is_not_passed_on_whole_or_cut(kernel):
    code = "display({'text/vnd.graphviz': 'digraph { ' + 'a -> b; ' * 40000 + '}'}, raw=True)"
    data = kernel.run(code)[1][0]["data"]
    assert "text/vnd.graphviz" not in data
    assert "over the" in data["text/plain"] and "limit" in data["text/plain"]
