"""Files a run writes under /output/: found by diffing (path, size, mtime) before and after."""

import mimetypes
import os


def snapshot(directory):
    state = {}
    for root, _dirs, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            state[os.path.relpath(path, directory)] = (stat.st_size, stat.st_mtime_ns)
    return state


def changed_files(directory, before):
    after = snapshot(directory)
    outputs = []
    for name in sorted(after):
        if before.get(name) == after[name]:
            continue
        size, _ = after[name]
        media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        outputs.append({"output_type": "file", "name": name.replace(os.sep, "/"), "size": size, "mediaType": media_type})
    return outputs
