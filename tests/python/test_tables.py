import json

import pandas as pd

TABLE = "application/vnd.dataresource+json"


def table(outputs):
    (output,) = [o for o in outputs if TABLE in o.get("data", {})]
    return output["data"][TABLE], output["data"]["text/plain"]


def test_dataframe_last_expression(kernel):
    _, outputs = kernel.run("import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})")
    data, text = table(outputs)
    assert [f["name"] for f in data["schema"]["fields"]] == ["index", "a", "b"]
    assert [f["type"] for f in data["schema"]["fields"]] == ["integer", "integer", "string"]
    assert data["data"] == [{"index": 0, "a": 1, "b": "x"}, {"index": 1, "a": 2, "b": "y"}]
    assert data["shape"] == [2, 2]
    assert "a" in text and "x" in text


def test_series_and_display(kernel):
    _, outputs = kernel.run("import pandas as pd\ndisplay(pd.Series([1.5, 2.5], name='price'))")
    data, _ = table(outputs)
    assert [f["name"] for f in data["schema"]["fields"]] == ["index", "price"]
    assert data["data"][1]["price"] == 2.5


def test_nan_none_nat_and_datetimes(kernel):
    code = (
        "import pandas as pd, numpy as np\n"
        "pd.DataFrame({'f': [1.0, np.nan], 'o': ['a', None], "
        "'t': pd.to_datetime(['2024-01-02', None]), 'd': pd.to_timedelta(['1 day', None])})"
    )
    data, _ = table(kernel.run(code)[1])
    json.dumps(data, allow_nan=False)
    row0, row1 = data["data"]
    assert row0["t"].startswith("2024-01-02T")
    assert row1["f"] is None and row1["o"] is None and row1["t"] is None and row1["d"] is None
    types = {f["name"]: f["type"] for f in data["schema"]["fields"]}
    assert types["t"] == "datetime" and types["f"] == "number"


def test_categoricals(kernel):
    data, _ = table(kernel.run("import pandas as pd\npd.DataFrame({'c': pd.Categorical(['lo', 'hi', 'lo'])})")[1])
    assert [r["c"] for r in data["data"]] == ["lo", "hi", "lo"]


def test_multiindex_rows_and_columns(kernel):
    code = (
        "import pandas as pd\n"
        "idx = pd.MultiIndex.from_tuples([('a', 1), ('b', 2)], names=['letter', 'number'])\n"
        "cols = pd.MultiIndex.from_tuples([('x', 'mean'), ('x', 'max')])\n"
        "pd.DataFrame([[1, 2], [3, 4]], index=idx, columns=cols)"
    )
    data, _ = table(kernel.run(code)[1])
    names = [f["name"] for f in data["schema"]["fields"]]
    assert names == ["letter", "number", "x / mean", "x / max"]
    assert data["schema"]["primaryKey"] == ["letter", "number"]
    assert data["data"][1] == {"letter": "b", "number": 2, "x / mean": 3, "x / max": 4}


def test_duplicate_and_non_string_column_names(kernel):
    data, _ = table(kernel.run("import pandas as pd\npd.DataFrame([[1, 2, 3]], columns=[0, 'a', 'a'])")[1])
    assert [f["name"] for f in data["schema"]["fields"]] == ["index", "0", "a", "a.1"]


def test_large_frame_is_capped_with_full_shape(make_kernel):
    harness = make_kernel(tableRows=50)
    data, _ = table(harness.run("import pandas as pd\npd.DataFrame({'n': range(1_200_000)})")[1])
    assert len(data["data"]) == 50
    assert data["shape"] == [1_200_000, 1]


def test_wide_frame_is_capped(make_kernel):
    harness = make_kernel(tableColumns=10)
    data, _ = table(harness.run("import pandas as pd\npd.DataFrame([list(range(500))])")[1])
    assert len(data["schema"]["fields"]) == 11  # index + 10 columns
    assert data["shape"] == [1, 500]


def test_numpy_array_is_text(kernel):
    _, outputs = kernel.run("import numpy as np\nnp.arange(3)")
    assert outputs[0]["data"] == {"text/plain": "array([0, 1, 2])"}
