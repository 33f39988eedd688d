# Adds folders (or single files) to a built VSIX (a zip):
# `python3 scripts/vsixAddFolders.py <vsix> <zip path>=<folder or file> ...`.
# scripts/packageExtension.mjs uses it for node-llama-cpp's official binaries of another platform, which vsce
# cannot pick up (they are not installed in node_modules), and for the cross-built linux-arm64 runtime. The zip is rewritten whole, so that
# [Content_Types].xml also names the file extensions added (.dylib, .dll, ...), as the VSIX format asks.
import os
import re
import sys
import zipfile

CONTENT_TYPES = "[Content_Types].xml"


def added_files(pairs):
    for pair in pairs:
        zip_dir, folder = pair.split("=", 1)
        if os.path.isfile(folder):
            yield folder, zip_dir
            continue
        for parent, _, names in os.walk(folder):
            for name in sorted(names):
                full = os.path.join(parent, name)
                yield full, zip_dir.rstrip("/") + "/" + os.path.relpath(full, folder).replace(os.sep, "/")


def with_extensions(xml, extensions):
    known = set(re.findall(r'Extension="([^"]*)"', xml))
    extra = "".join(
        f'<Default Extension="{ext}" ContentType="application/octet-stream"/>'
        for ext in sorted(extensions - known)
    )
    return xml.replace("</Types>", extra + "</Types>")


def main(vsix, pairs):
    files = list(added_files(pairs))
    extensions = {os.path.splitext(name)[1] for _, name in files if os.path.splitext(name)[1]}
    rewritten = vsix + ".partial"
    with zipfile.ZipFile(vsix) as old, zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == CONTENT_TYPES:
                data = with_extensions(data.decode("utf-8"), extensions).encode("utf-8")
            new.writestr(info, data, compress_type=info.compress_type)
        for full, name in files:
            new.write(full, name)
    os.replace(rewritten, vsix)
    print(f"added {len(files)} files to {vsix}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
