# The cffi extension is declared here because setuptools takes cffi_modules
# only through setup(); everything else lives in pyproject.toml.
from setuptools import setup

setup(cffi_modules=["native/build_ffi.py:ffibuilder"])
