# The cffi extension is declared here because setuptools takes cffi_modules
# only through setup(); everything else lives in pyproject.toml.
#
# cffi compiles the module against CPython's stable ABI (Py_LIMITED_API, the
# file is _dds.abi3.so), so one wheel serves every CPython from 3.10 on
# (requires-python): bdist_wheel tags it cp310-abi3 instead of the building
# interpreter's own tag.
from setuptools import setup

setup(
    cffi_modules=["native/build_ffi.py:ffibuilder"],
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
