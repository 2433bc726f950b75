"""The one place njit flags and numba's cache are set (ARCHITECTURE.md section 9).

Compiled kernels are cached on disk so that a second start takes about a second. numba
checks only the file that defines a cached kernel, not the files it calls, and a cached
caller holds its callees' machine code, so after an edit of envs/tac/turn.py a cached
kernel of another module would still run the old rules. The cache therefore lives in a
folder named after a hash of the sources a kernel can reach:

- a kernel of ruleset R (a module under envs/R/ or agents/R/) -> hash of envs/core/,
  agents/core/, envs/R/ and agents/R/: editing one ruleset, or the generic tools, recompiles nothing of
  another ruleset;
- a kernel of envs/core (rng, deck, ...) or agents/core (the generic search) -> hash of
  envs/core/ and agents/core/ alone; every ruleset's hash includes both;
- a ruleset whose kernels call another package's kernels (DEPENDS_ON: Fantasy Cards and
  Legendary Battles run on envs/tactical_assault) also hashes that package's folders.

A ruleset's kernels are compiled (or loaded) only when a command first calls them, so a
command that uses TAC never compiles another ruleset. The few most recent folders per key
are kept, so that switching branches stays cheap.

Where: $NUMBA_CACHE_DIR/<key>-<hash> if that variable is set, else
$XDG_CACHE_HOME/tacsim/numba/<key>-<hash> (~/.cache/tacsim/numba/<key>-<hash>).
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import shutil
import threading
from functools import cache
from pathlib import Path

import numba
from numba.core import config as _numba_config
from numba.core import types

from envs.core.borrow import borrow_arguments

_ROOT = Path(__file__).resolve().parents[2]
_KEEP = 3  # cache folders kept per key (the newest by use)
_FOLDER_NAME = re.compile(r"^(?P<key>[a-z0-9_]+)-[0-9a-f]{16}$")
CORE = "core"


def key_of_module(module: str) -> str:
    """Cache key of a kernel's module: its ruleset's name, or 'core'."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] in ("envs", "agents") and parts[1] != CORE:
        return parts[1]
    return CORE


# Rulesets whose kernels call another package's kernels: a cached kernel holds its callees'
# machine code, so the key must hash those sources too (Fantasy Cards and Legendary Battles
# both run on the Tactical Assault core, envs/tactical_assault).
# Both rulesets' kernels are defined in envs/tactical_assault and agents/tactical_assault, so
# they are keyed "tactical_assault" (key_of_module) and one compile serves both; the core reads
# constants of envs/fantasy_cards/tables.py (effect kinds, triggers), frozen into its machine
# code, so its key hashes that folder too.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "fantasy_cards": ("tactical_assault",),
    "legendary_battles": ("tactical_assault",),
    "tactical_assault": ("fantasy_cards",),
}


def source_keys(key: str) -> tuple[str, ...]:
    """The keys whose envs/<k> and agents/<k> folders a kernel of `key` is compiled from."""
    if key == CORE:
        return ()
    return (key, *DEPENDS_ON.get(key, ()))


def _sources(key: str) -> list[Path]:
    # agents/core holds generic agent kernels (search) that ruleset kernels call
    folders = [_ROOT / "envs" / CORE, _ROOT / "agents" / CORE]
    for k in source_keys(key):
        folders += [_ROOT / "envs" / k, _ROOT / "agents" / k]
    return [p for f in folders if f.is_dir() for p in sorted(f.rglob("*.py"))]


@cache
def source_hash(key: str = CORE) -> str:
    """Hash of the .py files a kernel with this key is compiled from."""
    h = hashlib.sha256()
    for path in _sources(key):
        h.update(path.relative_to(_ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_root() -> Path:
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tacsim" / "numba"


@cache
def cache_dir(key: str = CORE) -> Path:
    """The cache folder of a key (created; older folders of the same key pruned)."""
    root = _cache_root()
    folder = root / f"{key}-{source_hash(key)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # marks it as the newest in use
        ours = []
        for p in root.iterdir():
            m = _FOLDER_NAME.match(p.name)
            if p.is_dir() and m and m.group("key") == key:
                ours.append(p)
        ours.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in ours[_KEEP:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass  # an unwritable cache only costs compile time: numba then compiles in memory
    return folder


def cache_is_warm(key: str) -> bool:
    """Whether the cache of this key holds compiled kernels already."""
    return any(cache_dir(key).rglob("*.nbi"))


def _widened(t):
    """The argument type a kernel is compiled for when another kernel calls it: constants
    lose their literal type and small integers become int64 (uint64, the RNG words, stays),
    so that f(S, b, 0), f(S, b, p8) and f(S, b, p64) share one compiled specialisation."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.bitwidth < 64:
        return types.int64
    return t


# How deep the current compile is nested: numba compiles a callee while it types its caller
# (through get_call_template below), so a library finalised at depth > 0 is a callee's, and its
# code will be linked into its caller's module and optimised there again.
_compiling = threading.local()


def _nested_depth() -> int:
    return getattr(_compiling, "depth", 0)


def _one_signature(dispatcher):
    """Make calls from other kernels use widened argument types (see _widened). Without it
    numba compiled TAC's helpers up to five times each (a literal 0, an int8 seat read from
    the state, an int64 loop index, ...), a third of the cold compile time."""
    compile_for = getattr(dispatcher, "get_call_template", None)
    if compile_for is None:  # NUMBA_DISABLE_JIT=1: a plain Python function
        return dispatcher

    def get_call_template(args, kws):
        depth = _nested_depth()
        _compiling.depth = depth + 1
        try:
            return compile_for(tuple(_widened(a) for a in args), kws)
        finally:
            _compiling.depth = depth

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _optimize_kernels_only(self):
    """numba optimises every library's module after linking its callees' modules into it (two
    full module pipelines), then emits it, so a callee's code was optimised again at every
    level above it (Tactics David: 234 modules holding 2,104 functions, 51 s of its 185 s
    cold compile). A callee's module only runs as part of its callers' (where it is optimised
    with them), or when Python calls that function directly (tests: correct, less fast), so
    only a library compiled for a call from Python gets the module passes; a callee keeps
    numba's per-function passes (add_llvm_module). TACSIM_OPTIMIZE_CALLEES=1: numba's way."""
    if _numba_way():
        _numba_optimize_final_module(self)
    elif _nested_depth() == 0:
        _borrow_array_arguments(self)
        _numba_optimize_final_module(self)
        _own_copies(self._final_module, self.name)


def _own_copies(module, kernel_name: str) -> None:
    """Rename the callees' functions linked into a kernel's module (after it is optimised) with
    a tag of the kernel's name. They are linkonce_odr, weak symbols in the object code, and the
    JIT engine's linker binds a weak symbol to a definition it holds already: the callee
    library's own machine code, made with per-function passes only. So a kernel compiled in
    this process ran its callees' less optimised copies (Fantasy Cards' self-play, one thread:
    428k decisions/s after a cold compile, 656k loaded from the cache, where no callee library
    is loaded; 764k renamed, 2026-11-25). Making them internal did the same but crashed test
    workers in NRT_incref (docs/adding_a_ruleset.md); renamed, they stay weak, so a kernel that
    links this one still links them. Two kernels of one name share a tag: their copies of a
    function are compiled from the same source for the same types."""
    tag = hashlib.sha256(kernel_name.encode()).hexdigest()[:12]
    for fn in module.functions:
        if (
            fn.name[:3] == "_ZN"
            and not fn.is_declaration
            and fn.linkage == _ll.Linkage.linkonce_odr
        ):
            fn.name = f"{fn.name}.k{tag}"


def _borrow_array_arguments(self):
    """envs/core/borrow.py: the kernel's module without the reference counting of array
    arguments that a caller holds for the whole call. TACSIM_COUNT_ARGUMENTS=1 keeps it."""
    if os.environ.get("TACSIM_COUNT_ARGUMENTS") == "1":
        return
    text, removed = borrow_arguments(str(self._final_module))
    if removed:
        module = _ll.parse_assembly(text)
        module.name = self._final_module.name
        self._final_module = module  # verified by the finalize that follows


def _numba_way() -> bool:
    return os.environ.get("TACSIM_OPTIMIZE_CALLEES") == "1"


def _finalize_linking_once(self):
    """numba finalises a library by linking its callees' final modules into its own (each
    holding its own callees', and so on), optimising the lot and making machine code of all of
    it, at every level of the call tree: Tactics David's 250 functions were linked, checked and
    emitted 3,869 times. Here a callee's library (compiled at depth > 0) links nothing and makes
    machine code of its own functions only, whose calls resolve to its callees' machine code,
    already in the JIT engine; a kernel compiled for a call from Python links its whole call
    tree, each library once, and is optimised and emitted whole, as numba would. A callee's
    library is not written to the disk cache (its machine code needs its callees'): see
    _save_from_python_calls_only."""
    if _numba_way():
        return _numba_finalize(self)
    if _nested_depth() == 0:
        self._raise_if_finalized()
        tree = _call_tree(self._linking_libraries)
        for library in tree:
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        _link_what_is_declared(self, tree)
        self._tacsim_tree = tree  # numba keeps the libraries it linked alive with their user
        self._linking_libraries = []  # linked already: numba's finalize optimises and emits
        return _numba_finalize(self)
    self._raise_if_finalized()
    self._tacsim_callee = True
    for library in self._linking_libraries:
        self._reload_init.update(library._reload_init)
    # the callee's own code runs when Python calls it directly (tests); a kernel runs its own
    # renamed copies (_own_copies), borrowed again with the kernel's module
    _borrow_array_arguments(self)
    self._final_module.verify()
    # numba's _finalize_final_module, less its check that every numba symbol is defined in the
    # module (the callees' are declarations here) and the object-cache hook
    self._finalize_dynamic_globals()
    self._codegen._add_module(self._final_module)
    self._finalize_specific()
    self._finalized = True


def _call_tree(libraries):
    """The libraries a kernel links: its callees', and a callee library's callees' in turn
    (one that linked nothing itself, _finalize_linking_once), each once."""
    seen: set[int] = set()
    tree = []
    todo = list(reversed(libraries))
    while todo:
        library = todo.pop()
        if id(library) in seen:
            continue
        seen.add(id(library))
        tree.append(library)
        if getattr(library, "_tacsim_callee", False):
            todo.extend(reversed(library._linking_libraries))
    return tree


def _link_what_is_declared(kernel, tree):
    """Link again the libraries of the tree that define a function the kernel's module still
    only declares, until it declares none. The linker takes a callee's functions (linkonce_odr,
    numba's _get_module_for_linking) only where the module linked so far calls them: a library
    whose functions were not called yet when its turn came adds nothing, and a library linked
    later may call them (a whole kernel's module holds a function with its callees inlined, so
    the callee's own library is not called when it is linked; a callee library of another
    function calls it afterwards). In this process the engine resolved such a call to the
    callee's machine code, but the kernel's cached object code did not hold it and crashed
    when loaded in another process (CI, 2026-11-25). A function of the project or of numba
    (an Itanium name, _ZN...) that no library of the tree defines is an error here, never a
    crash later."""
    module = kernel._final_module
    defined_by = None
    while True:
        declared = {f.name for f in module.functions if f.is_declaration and f.name[:3] == "_ZN"}
        if not declared:
            return
        if defined_by is None:
            defined_by = {}
            for library in tree:
                for fn in library._get_module_for_linking().functions:
                    if not fn.is_declaration:
                        defined_by.setdefault(fn.name, library)
        missing = sorted(declared - defined_by.keys())
        if missing:
            raise RuntimeError(f"{kernel.name}: no library of its call tree defines {missing}")
        for library in {id(defined_by[n]): defined_by[n] for n in declared}.values():
            module.link_in(library._get_module_for_linking(), preserve=True)
        if any(module.get_function(n).is_declaration for n in declared):
            raise RuntimeError(f"{kernel.name}: linking did not define {sorted(declared)}")


def _serialize_whole_only(self):
    if getattr(self, "_tacsim_callee", False):
        raise RuntimeError(f"{self.name}: a callee's library holds only its own machine code")
    return _numba_serialize(self)


def _record_repr_once(self):
    """numba formats every compile pass's argument types (an event's details), and a state
    array's Record type prints all its fields: Tactics David's ~190-field state was printed
    tens of thousands of times per cold compile (about 5 % of it). A Record's fields never
    change after it is made, so its text is made once."""
    text = self.__dict__.get("_tacsim_repr")
    if text is None:
        text = self.__dict__["_tacsim_repr"] = _numba_record_repr(self)
    return text


def _config_eq(self, other):
    """numba's TargetConfig.__eq__ (equal values() of every option), answered from the stored
    values when they are the same dict. numba keys its cache of @overload implementations by
    the compile's Flags, whose hash covers only the option names, so every look-up compares
    two Flags (Tactics David: ~300,000 comparisons, each building two dicts of 22 options
    through property calls, ~5 s of a cold compile)."""
    if isinstance(other, _targetconfig.TargetConfig) and self._values == other._values:
        return True
    return _numba_config_eq(self, other)


def _config_hash(self):
    # numba's own value: the hash of the sorted option names (values() iterated as a dict)
    return hash(tuple(sorted(self.options)))


if not _numba_config.DISABLE_JIT:
    import llvmlite.binding as _ll
    from numba.core import codegen as _codegen
    from numba.core import targetconfig as _targetconfig

    _numba_config_eq = _targetconfig.TargetConfig.__eq__
    _targetconfig.TargetConfig.__eq__ = _config_eq
    _targetconfig.TargetConfig.__hash__ = _config_hash

    _numba_record_repr = types.Record.__repr__
    types.Record.__repr__ = _record_repr_once

    _numba_optimize_final_module = _codegen.CPUCodeLibrary._optimize_final_module
    _codegen.CPUCodeLibrary._optimize_final_module = _optimize_kernels_only
    _numba_finalize = _codegen.CPUCodeLibrary.finalize
    _codegen.CPUCodeLibrary.finalize = _finalize_linking_once
    _numba_serialize = _codegen.CPUCodeLibrary.serialize_using_object_code
    _codegen.CPUCodeLibrary.serialize_using_object_code = _serialize_whole_only


def _save_from_python_calls_only(kernel):
    """A kernel compiled for a call from another kernel holds only its own machine code
    (_finalize_linking_once), so only a compile for a call from Python is cached: a warm
    start loads the kernels Python calls, each whole, and never types their callees."""
    cache = getattr(kernel, "_cache", None)
    if cache is None or _numba_way():
        return
    save = cache.save_overload

    def save_overload(sig, data):
        if _nested_depth() == 0:
            save(sig, data)

    cache.save_overload = save_overload


# Python's cyclic garbage collector during a compile: numba makes millions of objects (IR,
# types, llvmlite values) that live until the compile ends, so every full collection walks
# them all again, to free almost nothing. A compile that Python asked for runs with the
# collector paused (the garbage goes at the next collection after it): Tactics David's
# BatchEnv path 65.8-73.5 -> 57.6 s, at 1.3 GB peak memory instead of 0.6 GB (2026-11-25,
# docs/adding_a_ruleset.md). TACSIM_COMPILE_GC=1 keeps the collector running (comparisons).
_gc_lock = threading.Lock()
_gc_pauses = 0
_gc_was_enabled = False


def _pause_gc() -> None:
    global _gc_pauses, _gc_was_enabled
    with _gc_lock:
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1


def _resume_gc() -> None:
    global _gc_pauses
    with _gc_lock:
        _gc_pauses -= 1
        if _gc_pauses == 0 and _gc_was_enabled:
            gc.enable()


def _gc_paused_while_compiling(dispatcher):
    """Pause the collector while a call from Python compiles (or loads) the kernel. numba's
    dispatcher calls _compile_for_args only when no compiled version fits the arguments."""
    compile_for_args = getattr(dispatcher, "_compile_for_args", None)
    if compile_for_args is None or os.environ.get("TACSIM_COMPILE_GC") == "1":
        return dispatcher

    def _compile_for_args(*args, **kws):
        _pause_gc()
        try:
            return compile_for_args(*args, **kws)
        finally:
            _resume_gc()

    dispatcher._compile_for_args = _compile_for_args
    return dispatcher


def _decorator(**flags):
    def decorate(fn):
        # numba reads CACHE_DIR when the dispatcher is made, so set it per kernel
        saved = _numba_config.CACHE_DIR
        _numba_config.CACHE_DIR = str(cache_dir(key_of_module(fn.__module__)))
        try:
            # no_cfunc_wrapper: the C-callable wrapper serves only first-class function values,
            # which tacsim never passes; skipping it saves ~15 ms of compile per kernel
            kernel = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, **flags)(fn)
            _save_from_python_calls_only(kernel)
            return _gc_paused_while_compiling(_one_signature(kernel))
        finally:
            _numba_config.CACHE_DIR = saved

    return decorate


# njit_parallel (numba.prange) is TAC's way to loop over a batch; newer rulesets run serial
# loops on threads instead (envs/core/threads.py: a parallel kernel compiles its call tree
# four times). Inside a prange loop, convert the loop index with np.int64(...) before passing
# it on: numba types it both int64 and uint64, and every callee would otherwise be compiled
# twice.
njit = _decorator()
njit_parallel = _decorator(parallel=True)
# A thin wrapper, or a helper called from exactly one place, is typed inside its caller and is
# no LLVM module of its own (docs/adding_a_ruleset.md, "Habits that keep compile time bounded").
njit_inline = _decorator(inline="always")
