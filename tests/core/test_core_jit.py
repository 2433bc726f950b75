"""envs/core/jit.py: the LLVM module passes run only for kernels compiled for a call from
Python, not again for every callee compiled while its caller is typed."""

import numba
import pytest

from envs.core import jit


def _plus_one(x):
    return x + 1


# not cached (a test must see the compile), through the same call-template wrapper as @njit
_plus_one_kernel = jit._one_signature(numba.njit(cache=False)(_plus_one))


def _twice_plus_one(x):
    return _plus_one_kernel(x) * 2


_twice_plus_one_kernel = jit._one_signature(numba.njit(cache=False)(_twice_plus_one))


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_only_the_kernel_python_calls_gets_the_module_passes(monkeypatch):
    optimised = []
    real = jit._numba_optimize_final_module

    def spy(library):
        optimised.append(library.name)
        real(library)

    monkeypatch.setattr(jit, "_numba_optimize_final_module", spy)
    monkeypatch.delenv("TACSIM_OPTIMIZE_CALLEES", raising=False)
    assert _twice_plus_one_kernel(3) == 8  # the callee's code is linked in and runs
    assert any(name.endswith("_twice_plus_one") for name in optimised), optimised
    assert not any(name.endswith("_plus_one") and "twice" not in name for name in optimised)
    assert jit._nested_depth() == 0  # the depth is unwound after the nested compile
    assert _plus_one_kernel(4) == 5  # the callee alone, called from Python, runs as well
