"""A PEP 517 / PEP 660 build backend for imu-client, standard library only.

pip builds packages in an isolated environment and downloads the backend a pyproject.toml names
(setuptools, usually); on Debian 12 / Pi OS Bookworm without network, or where PyPI is not
wanted, that download fails. This backend lives in the source tree (`backend-path`), needs
nothing, and builds the one pure-Python package this project has: `imu` and its subpackages.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "imu"
TAG = "py3-none-any"


def _project():
    """name, version, summary and requires-python from pyproject.toml's [project] table (the
    keys this file sets as plain one-line strings; tomllib is not in Python 3.9 and 3.10)."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    values = {}
    for key in ("name", "version", "description", "requires-python"):
        match = re.search(r'^%s\s*=\s*"([^"]*)"' % re.escape(key), table, re.MULTILINE)
        if not match:
            raise RuntimeError("pyproject.toml: [project] needs %s = \"...\"" % key)
        values[key] = match.group(1)
    return values


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
        "Summary: " + project["description"],
        "Requires-Python: " + project["requires-python"],
        "License: MIT",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Operating System :: POSIX :: Linux",
        "Description-Content-Type: text/markdown",
        "",
    ]
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return "\n".join(lines) + "\n" + f.read()


def _dist_info(project):
    return "%s-%s.dist-info" % (project["name"].replace("-", "_"), project["version"])


def _sources():
    """(path in the wheel, path on disk) of every .py file of the package."""
    for directory, subdirectories, files in os.walk(os.path.join(ROOT, PACKAGE)):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                yield os.path.relpath(path, ROOT).replace(os.sep, "/"), path


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def _write_wheel(wheel_directory, files):
    """files: (name, bytes) pairs; adds the dist-info and RECORD, returns the wheel's name."""
    project = _project()
    dist_info = _dist_info(project)
    files = list(files) + [
        (dist_info + "/METADATA", _metadata(project).encode()),
        (dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: imu_build\nRoot-Is-Purelib: true\nTag: %s\n" % TAG).encode()),
    ]
    record = [_record_line(name, data) for name, data in files] + [dist_info + "/RECORD,,"]
    files.append((dist_info + "/RECORD", ("\n".join(record) + "\n").encode()))
    wheel = "%s-%s-%s.whl" % (project["name"].replace("-", "_"), project["version"], TAG)
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return wheel


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, ((name, _read(path)) for name, path in _sources()))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth line puts the source tree on sys.path: edits take effect without reinstalling.
    return _write_wheel(wheel_directory, [("imu_client_editable.pth", (ROOT + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = "%s-%s" % (project["name"].replace("-", "_"), project["version"])
    members = ["pyproject.toml", "README.md", "_build/imu_build.py"] + [name for name, _ in _sources()]
    with tarfile.open(os.path.join(sdist_directory, base + ".tar.gz"), "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for name in members:
            data = _read(os.path.join(ROOT, name))
            info = tarfile.TarInfo(base + "/" + name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            archive.addfile(info, io.BytesIO(data))
        pkg_info = _metadata(project).encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size, info.mode, info.mtime = len(pkg_info), 0o644, 0
        archive.addfile(info, io.BytesIO(pkg_info))
    return base + ".tar.gz"
