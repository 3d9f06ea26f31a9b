"""Vega-Lite specs pass through display(..., raw=True) and _repr_mimebundle_ (as Altair emits them)."""

import json

V5 = "application/vnd.vegalite.v5+json"
V6 = "application/vnd.vegalite.v6+json"

BAR = (
    "{'$schema': 'https://vega.github.io/schema/vega-lite/v5.json',"
    " 'data': {'values': [{'k': 'a', 'v': 3}, {'k': 'b', 'v': 5}]},"
    " 'mark': 'bar', 'encoding': {'x': {'field': 'k', 'type': 'nominal'}, 'y': {'field': 'v', 'type': 'quantitative'}}}"
)


def test_raw_display_of_a_bundle_passes_the_spec_through(kernel):
    status, outputs = kernel.run(f"display({{'{V5}': {BAR}}}, raw=True)")
    assert status == "ok"
    (output,) = outputs
    assert output["output_type"] == "display_data"
    data = output["data"]
    assert set(data) == {V5, "text/plain"}
    assert data[V5]["mark"] == "bar"
    assert data[V5]["data"]["values"] == [{"k": "a", "v": 3}, {"k": "b", "v": 5}]
    assert data["text/plain"] == "<Vega-Lite chart: bar>"


def test_raw_display_keeps_its_own_text_and_filters_other_types(kernel):
    code = f"display({{'{V6}': {{'layer': []}}, 'text/plain': 'my chart', 'text/html': '<script></script>'}}, raw=True)"
    data = kernel.run(code)[1][0]["data"]
    assert set(data) == {V6, "text/plain"}
    assert data["text/plain"] == "my chart"


def test_without_raw_a_dict_is_shown_as_text(kernel):
    data = kernel.run(f"display({{'{V5}': {{'mark': 'bar'}}}})")[1][0]["data"]
    assert set(data) == {"text/plain"}
    assert V5 in data["text/plain"]


def test_raw_display_of_unknown_types_says_so(kernel):
    data = kernel.run("display({'text/html': '<b>hi</b>'}, raw=True)")[1][0]["data"]
    assert data == {"text/plain": "<display data of type text/html, not shown here>"}


def test_altair_style_repr_mimebundle(kernel):
    code = (
        "class Chart:\n"
        "    def __init__(self, spec): self.spec = spec\n"
        "    def _repr_mimebundle_(self, include=None, exclude=None):\n"
        f"        return {{'{V5}': self.spec, 'text/plain': 'alt.Chart(...)'}}, {{}}\n"
        "    def __repr__(self): return 'Chart()'\n"
        f"display(Chart({BAR}))\n"
        f"Chart({{'mark': {{'type': 'line'}}}})"
    )
    status, outputs = kernel.run(code)
    assert status == "ok"
    shown, result = outputs
    assert shown["output_type"] == "display_data"
    assert shown["data"][V5]["encoding"]["y"]["field"] == "v"
    assert shown["data"]["text/plain"] == "alt.Chart(...)"
    assert result["output_type"] == "execute_result"
    assert result["data"][V5] == {"mark": {"type": "line"}}


def test_spec_becomes_json_safe(kernel):
    code = (
        "import datetime\n"
        "spec = {'mark': 'point', 'data': {'values': [{'x': float('nan'), 'y': float('inf'), 'when': datetime.date(2024, 1, 2), 't': (1, 2)}]}}\n"
        f"display({{'{V5}': spec}}, raw=True)"
    )
    status, outputs = kernel.run(code)
    assert status == "ok"
    (row,) = outputs[0]["data"][V5]["data"]["values"]
    assert row == {"x": None, "y": None, "when": "2024-01-02", "t": [1, 2]}


def test_spec_given_as_json_text_is_parsed(kernel):
    spec = json.dumps({"mark": "area"})
    data = kernel.run(f"display({{'{V5}': {spec!r}}}, raw=True)")[1][0]["data"]
    assert data[V5] == {"mark": "area"}


def test_oversized_spec_is_replaced_by_a_sentence(kernel):
    code = f"display({{'{V5}': {{'mark': 'bar', 'data': {{'values': [{{'v': 'x' * 1000}}] * 6000}}}}}}, raw=True)"
    status, outputs = kernel.run(code)
    assert status == "ok"
    data = outputs[0]["data"]
    assert V5 not in data
    assert "Vega-Lite chart not shown" in data["text/plain"]
    assert "5,000,000" in data["text/plain"]


def test_spec_that_is_not_an_object_is_dropped(kernel):
    data = kernel.run(f"display({{'{V5}': [1, 2, 3]}}, raw=True)")[1][0]["data"]
    assert V5 not in data
    assert "text/plain" in data
