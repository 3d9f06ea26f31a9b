"""The state of the run in progress: where outputs go and the per-run caps and counters."""

import base64

from .mime_types import IMAGE_TYPES


class RunSession:
    def __init__(self, emit, caps, capture):
        self.emit = emit
        self.caps = caps
        self.capture = capture
        self.images = 0
        self.dropped_images = 0
        self.shown_figures = set()

    def publish(self, output_type, bundle):
        bundle = self._apply_image_caps(bundle)
        if not bundle:
            return
        self.capture.flush()  # keep order: text printed before this output comes first
        self.emit({"output_type": output_type, "data": bundle})

    def _apply_image_caps(self, bundle):
        image_keys = [k for k in IMAGE_TYPES if k in bundle]
        if not image_keys:
            return bundle
        if self.images >= self.caps.images_per_run:
            self.dropped_images += 1
            return None
        for key in image_keys:
            size = len(base64.b64decode(bundle[key], validate=False))
            if size > self.caps.image_bytes:
                self.notice(f"[runpad] an image of {size:,} bytes was not shown (limit: {self.caps.image_bytes:,} bytes)\n")
                bundle = {k: v for k, v in bundle.items() if k != key}
        if any(k in bundle for k in IMAGE_TYPES):
            self.images += 1
        return bundle

    def notice(self, text):
        self.capture.write("stderr", text)

    def finish(self):
        if self.dropped_images:
            self.notice(
                f"[runpad] {self.dropped_images:,} more images were not shown "
                f"(limit: {self.caps.images_per_run} per run)\n"
            )


_current = None


def current():
    return _current


def set_current(session):
    global _current
    _current = session
