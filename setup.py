# The cffi extensions are declared here because setuptools takes cffi_modules
# only through setup(); everything else lives in pyproject.toml.
#
# cffi compiles the modules against CPython's stable ABI (Py_LIMITED_API, the
# files are _dds.abi3.so and _dealkernel.abi3.so), so one wheel serves every CPython from 3.10 on
# (requires-python): bdist_wheel tags it cp310-abi3 instead of the building
# interpreter's own tag.
from setuptools import setup

setup(
    cffi_modules=["native/build_ffi.py:ffibuilder", "native/build_ffi.py:kernelbuilder"],
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
