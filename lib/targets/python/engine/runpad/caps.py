"""Output caps for one run. Values come from the JS side (lib/runtime/limits.ts)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Caps:
    stream_chars: int
    images_per_run: int
    image_bytes: int
    table_rows: int
    table_columns: int
    text_chars: int

    @classmethod
    def from_dict(cls, caps):
        return cls(
            stream_chars=int(caps["streamChars"]),
            images_per_run=int(caps["imagesPerRun"]),
            image_bytes=int(caps["imageBytes"]),
            table_rows=int(caps["tableRows"]),
            table_columns=int(caps["tableColumns"]),
            text_chars=int(caps["textChars"]),
        )


def clip(text, limit):
    """Caps one text value, saying how much was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… [{len(text) - limit:,} more characters not shown]"
