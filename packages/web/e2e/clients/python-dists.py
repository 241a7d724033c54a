"""Builds a wheel and an sdist of a tiny project, as a build backend would, with the standard library only.

usage: python3 python-dists.py OUT_DIR NAME VERSION [REQUIRES_DIST ...]
"""
import base64
import hashlib
import io
import os
import sys
import tarfile
import zipfile

out, name, version, *requires = sys.argv[1:]
module = name.lower().replace("-", "_")
dist = name.replace("-", "_")
metadata = "\n".join(
    ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {name} for tests", "Requires-Python: >=3.8"]
    + [f"Requires-Dist: {r}" for r in requires]
) + "\n"
code = f'def hello():\n    return "hello from {name} {version}"\n'

wheel_name = f"{dist}-{version}-py3-none-any.whl"
info = f"{dist}-{version}.dist-info"
files = {
    f"{module}/__init__.py": code,
    f"{info}/METADATA": metadata,
    f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: arca-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = []
with zipfile.ZipFile(os.path.join(out, wheel_name), "w") as wheel:
    for path, text in files.items():
        data = text.encode()
        wheel.writestr(path, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")

sdist_name = f"{dist}-{version}.tar.gz"
with tarfile.open(os.path.join(out, sdist_name), "w:gz") as sdist:
    for path, text in {
        "PKG-INFO": metadata,
        f"{module}/__init__.py": code,
        "pyproject.toml": f'[project]\nname = "{name}"\nversion = "{version}"\n',
    }.items():
        data = text.encode()
        entry = tarfile.TarInfo(f"{dist}-{version}/{path}")
        entry.size = len(data)
        sdist.addfile(entry, io.BytesIO(data))
print(wheel_name)
print(sdist_name)
