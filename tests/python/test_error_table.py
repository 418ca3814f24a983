"""The exception classes come from the core's one error table (QLESS_ERRORS in
qless/common.h): the package exports exactly its rows, and the type stub
declares exactly them, so a code added to the table cannot be half-bound."""
import ast
import pathlib

import qless
from qless import _core


def test_package_exports_every_row():
    names = [cls.__name__ for cls in _core.ERROR_CLASSES]
    assert names[0] == "Error" and len(names) == len(set(names)) > 1
    codes = [cls.code for cls in _core.ERROR_CLASSES[1:]]
    assert len(set(codes)) == len(codes) and all(code < 0 for code in codes)
    for cls in _core.ERROR_CLASSES:
        assert getattr(qless, cls.__name__) is cls and cls.__name__ in qless.__all__
        assert cls.__doc__, "the table's meaning is the class's docstring"
        assert cls is _core.Error or issubclass(cls, _core.Error)


def test_stub_declares_every_row():
    stub = pathlib.Path(qless.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text())
    declared = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    assert declared == [cls.__name__ for cls in _core.ERROR_CLASSES]
