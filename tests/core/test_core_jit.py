"""envs/core/jit.py: the LLVM module passes run only for kernels compiled for a call from
Python, not again for every callee compiled while its caller is typed; a callee's library holds
its own code only and the kernel Python calls links its whole tree once; only kernels compiled
for a call from Python are cached; numba's Flags comparisons and Record printing give numba's
own answers."""

import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest
from numba.core.compiler import Flags

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


def _defined(library) -> set[str]:
    return {f.name for f in library._final_module.functions if not f.is_declaration}


def _library(dispatcher):
    (cres,) = dispatcher.overloads.values()
    return cres.library


def _leaf(x):
    return x - 1


def _middle(x):
    return _leaf_kernel(x) * 3


def _top(x):
    return _middle_kernel(x) + 100


_leaf_kernel = jit._one_signature(numba.njit(cache=False)(_leaf))
_middle_kernel = jit._one_signature(numba.njit(cache=False)(_middle))
_top_kernel = jit._one_signature(numba.njit(cache=False)(_top))


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_a_callee_holds_its_own_code_and_the_kernel_links_the_whole_tree(monkeypatch):
    monkeypatch.delenv("TACSIM_OPTIMIZE_CALLEES", raising=False)
    linked = {}
    real = jit._numba_optimize_final_module

    def spy(library):
        linked[library.name] = _defined(library)  # linked, before LLVM inlines it away
        real(library)

    monkeypatch.setattr(jit, "_numba_optimize_final_module", spy)
    assert _top_kernel(5) == 112  # (5 - 1) * 3 + 100: the tree links and runs
    middle, top = _library(_middle_kernel), _library(_top_kernel)
    assert getattr(middle, "_tacsim_callee", False)
    assert not getattr(top, "_tacsim_callee", False)
    assert any("_middle" in n for n in _defined(middle))
    assert not any("_leaf" in n for n in _defined(middle))  # declared only, not linked in
    # the kernel links its callee's callee too, so LLVM can inline it and it runs on its own
    assert list(linked) == [top.name], linked
    assert any("_leaf" in n for n in linked[top.name]), linked
    assert _middle_kernel(2) == 3  # a callee called from Python runs on the engine's code
    with pytest.raises(RuntimeError, match="own machine code"):
        middle.serialize_using_object_code()


def _leaf2(x):
    # big enough, and called from enough places, that LLVM keeps it a function
    t = 0
    for m in (977, 983, 991, 997, 1009, 1013):
        for k in range(x + m % 7):
            for j in range(k):
                t += (k ^ j) * (m % 5 + 1) - (t >> (m % 3 + 1))
                if t > 100_000:
                    t = t % m
    return t


def _top2(x):
    return sum([_leaf2_kernel(x + n) for n in range(3)]) + _leaf2_kernel(x + 5) * (
        _leaf2_kernel(x + 7) - _leaf2_kernel(x + 9)
    ) ^ _leaf2_kernel(x + 11) + _leaf2_kernel(x + 13) * _leaf2_kernel(x + 15)


_leaf2_kernel = jit._one_signature(numba.njit(cache=False)(_leaf2))
_top2_kernel = jit._one_signature(numba.njit(cache=False)(_top2))


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_a_kernel_runs_its_own_copy_of_its_callees(monkeypatch):
    """The callees' code linked into a kernel is renamed with a tag of the kernel's name, so
    the engine's linker cannot bind the kernel's calls to the callee library's own (less
    optimised) machine code, a weak symbol of the same name it held already."""
    monkeypatch.delenv("TACSIM_OPTIMIZE_CALLEES", raising=False)
    assert _top2_kernel(1) == _top2(1)  # the Python function, calling the compiled leaf
    top, leaf = _library(_top2_kernel), _library(_leaf2_kernel)
    (leaf_name,) = [n for n in _defined(leaf) if n.startswith("_ZN") and "cpython" not in n]
    copies = [f for f in top._final_module.functions if f.name.startswith(leaf_name + ".k")]
    assert copies and all(f.linkage.name == "linkonce_odr" for f in copies), copies
    assert leaf_name not in _defined(top)  # nothing of the callee's own name to bind elsewhere
    assert _leaf2_kernel(1) == _leaf2(1)


_CACHED = """
import sys
sys.path.insert(0, {root!r})
import numba
from envs.core import jit

def leaf(x):
    return x * 7

def top(x):
    return leaf_kernel(x) + 1

leaf_kernel = numba.njit(cache=True)(leaf)
jit._save_from_python_calls_only(leaf_kernel)
leaf_kernel = jit._one_signature(leaf_kernel)
top_kernel = numba.njit(cache=True)(top)
jit._save_from_python_calls_only(top_kernel)
top_kernel = jit._one_signature(top_kernel)
print(top_kernel(6), top_kernel.stats.cache_hits.get(top_kernel.signatures[0], 0))
"""


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_only_kernels_python_calls_are_cached_and_they_load_whole(tmp_path):
    """A fresh process compiles and caches `top` only; a second one loads it from the cache
    (a hit, nothing compiled) and it runs: the cached kernel holds its callee's code."""
    script = tmp_path / "cached_kernels.py"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script.write_text(textwrap.dedent(_CACHED.format(root=root)))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("TACSIM_OPTIMIZE_CALLEES", None)
    runs = [
        subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        for _ in range(2)
    ]
    assert runs == [["43", "0"], ["43", "1"]], runs
    indexes = sorted(p.name for p in (tmp_path / "cache").rglob("*.nbi"))
    assert len(indexes) == 1 and ".top-" in indexes[0], indexes


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_flags_compare_and_hash_as_numba_does():
    a, b, c = Flags(), Flags(), Flags()
    a.nrt = True
    b.nrt = True
    c.nrt = False  # numba's default, stored: equal to a Flags that never set it
    for x in (a, b, c, Flags()):
        assert hash(x) == hash(tuple(sorted(x.values())))
        for y in (a, b, c, Flags()):
            assert (x == y) == (x.values() == y.values())
    assert a == b and c == Flags() and a != c


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_a_record_prints_as_numba_prints_it():
    record = numba.typeof(np.zeros(1, dtype=[("a", np.int8), ("b", np.float64, (3,))])).dtype
    assert repr(record) == jit._numba_record_repr(record)
    assert repr(record) == repr(record) and "('b'" in repr(record)


_BLOCK = """
    for k in range(i + {n}):
        for j in range(k):
            t += small(a, j + {n}) * (k ^ j) - (t >> {shift})
            if t > 1000000:
                t = t % {mod}"""

_INLINED_FIRST = """
import sys
sys.path.insert(0, {root!r})
import numpy as np
from envs.core.jit import njit

@njit
def small(a, i):
    return a[i % a.size] + 1

@njit
def big(a, i):
    t = 0{blocks}
    return t

@njit
def whole(a, i):
    return {twenty_calls}

@njit
def calls_big(a, i):
    return big(a, i + 7)

@njit
def calls_small(a, i):
    return small(a, i) * 3

@njit
def kernel(a, i):
    return whole(a, i) + calls_big(a, i) + calls_small(a, i)

a = np.arange(10)
if sys.argv[1] == "first":
    whole(a, 3)  # compiled for Python: big is kept in its module, small inlined into it
result = kernel(a, 3)
(cres,) = kernel.overloads.values()
declared = [f.name for f in cres.library._final_module.functions
            if f.is_declaration and f.name.startswith("_ZN")]
print(result, len(declared), kernel.stats.cache_hits.get(kernel.signatures[0], 0))
"""


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no compile without the JIT")
def test_a_kernel_links_a_callee_the_tree_reaches_before_anything_calls_it(tmp_path):
    """`whole` is compiled first, for Python: `big` stays a function in its module, with
    `small` inlined. Then `kernel`'s tree links `whole`, `calls_big`'s library (whose call of
    `big` is already defined), `big`'s and `small`'s (whose function nothing called yet, so
    the linker skipped it) and `calls_small`'s, which calls `small`. The kernel must define
    `small` all the same: before envs/core/jit.py linked what was still declared, the module
    declared it, ran on the engine's copy in this process, and its cached object code crashed
    a second process that loaded it (a segmentation fault in CI, Tactics David's
    units.has_permission)."""
    script = tmp_path / "inlined_first.py"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    blocks = "".join(_BLOCK.format(n=n, shift=n % 5 + 1, mod=977 + n) for n in range(12))
    calls = " + ".join(f"big(a, i + {n})" for n in range(20))
    script.write_text(_INLINED_FIRST.format(root=root, blocks=blocks, twenty_calls=calls))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("TACSIM_OPTIMIZE_CALLEES", None)
    first = subprocess.run(
        [sys.executable, str(script), "first"], env=env, capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr[-2000:]
    again = subprocess.run(
        [sys.executable, str(script), "again"], env=env, capture_output=True, text=True
    )
    assert again.returncode == 0, (again.returncode, again.stderr[-2000:])
    result, declared, hits = first.stdout.split()
    assert declared == "0" and hits == "0", first.stdout
    assert again.stdout.split() == [result, "0", "1"], again.stdout  # loaded, and it ran
