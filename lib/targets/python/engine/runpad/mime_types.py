"""The display MIME types Python passes on, in the order of lib/runtime/mime-types.ts (the one
list; lib/runtime/mime-types.test.ts fails when this copy differs). Anything else a
`_repr_mimebundle_` or a raw `display` offers is dropped here."""

FROM_PYTHON = (
    "text/plain",
    "text/markdown",
    "image/png",
    "image/jpeg",
    "application/vnd.dataresource+json",
    "application/vnd.vegalite.v5+json",
    "application/vnd.vegalite.v6+json",
    "text/vnd.graphviz",
)

IMAGE_TYPES = ("image/png", "image/jpeg")
VEGALITE_TYPES = ("application/vnd.vegalite.v5+json", "application/vnd.vegalite.v6+json")
TEXT_TYPES = ("text/plain", "text/markdown")
DOT_TYPE = "text/vnd.graphviz"
