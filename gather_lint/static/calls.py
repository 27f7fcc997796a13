"""Calls to functions of the same module, analysed again with the caller's facts.

Only 9% of real gather sites have a shape annotation nearby; many helpers get their tensors from
a caller that knows the shapes. A call whose tensor arguments have known shapes re-runs the callee
with those facts bound to its unannotated parameters (memoised per fact tuple, two calls deep).
Findings inside say which call supplied the shapes; the callee's return value flows back.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Dict, Optional

from ..dims import Shape, Sym
from ..dims import value as value_of
from . import attribute_stores, class_lineage, dataclass_configs, degenerate_softmax, fitted_instances, passed_dims
from . import autograd_ctx, decorated_calls, exact_values, passed_tensors, renamed_sizes, scope_faults, script_drivers
from . import sequences, tree_walk
from .declared_facts import annotated_module, documented_shapes
from .argument_binding import FACTS, bind, number_defaults
from .config import DictVal
from .data_loaders import DatasetVal
from .dataflow_checks import PassedIn
from .modules import Cell, Conv, InstanceVal, KeepShape, LayerList, Recurrent, Sequential, is_layer
from .numpy_values import ArrayVal
from .python_types import ListVal
from .tensor_ops import Repeated, value_kind
from .scalars import NumberVal, is_float_number
from .values import DimVal, LayerVal, Literal, QualName, SeqVal, TensorVal, join_all

MAX_DEPTH = 3
# runs of one function under distinct caller facts, per module: a generator script calling its helpers from
# nested loops over literal lists makes a new fact tuple each iteration (the product of the lists), and past
# this many runs the callee's own result serves the remaining calls
MAX_RUNS_PER_FUNCTION = 32


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


class ModuleContext:
    def __init__(self, tree: ast.Module, make_interpreter):
        self.tree = tree  # the module body's own bindings, for checks that read a script's names
        self.functions: Dict[str, ast.AST] = {node.name: node for node in tree.body if isinstance(node, _DEFS)}
        self.methods: Dict[tuple, ast.AST] = {}
        self.class_of: Dict[ast.AST, str] = {}
        self.classes: Dict[str, ast.ClassDef] = {}
        for cls in tree.body:
            if isinstance(cls, ast.ClassDef):
                self.classes[cls.name] = cls
                for node in cls.body:
                    if isinstance(node, _DEFS):
                        self.methods[(cls.name, node.name)] = node
                        self.class_of[node] = cls.name
        self.lineage = class_lineage.inherit(self.classes, self.methods)  # a subclass runs its parent's __init__
        # a script (a `__main__` driver, or module-level statements calling its code) builds its classes from
        # known sizes; a library builds them from configs, where running every opaque instance's forward
        # would cost more than it finds
        self.scripted = script_drivers.runs_as_script(tree)
        self._drivers: Optional[set] = None  # the `main()`s the guard calls, found on the first question
        self._import_roots: Optional[frozenset] = None  # top-level packages the file imports, found likewise
        self._make = make_interpreter
        self.own = (lambda *a: None, lambda *a: None)  # (report, flag) of functions' own analyses
        self.fault: Optional[scope_faults.Fault] = None  # told of a function whose own analysis failed
        self._memo: Dict[tuple, object] = {}
        self._runs: Dict[ast.AST, int] = {}  # runs under caller facts so far, per callee (MAX_RUNS_PER_FUNCTION)
        self._attributes: Dict[tuple, Dict[str, object]] = {}
        self._store_counts: Dict[str, Dict[str, int]] = {}
        self.closures: Dict[ast.AST, Dict[str, object]] = {}  # nested def -> free names' facts (closure_facts)
        self.fitted_at: Dict[int, object] = {}  # id(call node) -> the instance its method left (fitted_instances)
        self._fitted: Dict[tuple, object] = {}
        self.context_facts: Dict[ast.AST, Dict[str, object]] = {}  # an autograd forward's ctx.<name> (autograd_ctx)
        self.last_context: Dict[ast.AST, Dict[str, object]] = {}  # ... of the forward's latest run with a call's facts
        self._contexts: Dict[tuple, Dict[str, object]] = {}

    def import_roots(self) -> frozenset:
        """The top-level packages the file imports anywhere (`torch`, `paddle`), absolute imports only."""
        if self._import_roots is None:
            roots = set()
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Import):
                    roots.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    roots.add(node.module.split(".")[0])
            self._import_roots = frozenset(roots)
        return self._import_roots

    def attributes(self, class_name: str, facts: tuple = ()) -> Dict[str, object]:
        """`self.x` facts from __init__ (run with an instance's constructor arguments, if given), for
        attributes no other method reassigns."""
        built, stored = fitted_instances.split(facts)
        if stored:  # what a `return self` method stored wins over what __init__ built
            return {**self.attributes(class_name, built), **stored}
        key = (class_name, facts)
        if key not in self._attributes and self._is_config(class_name):
            self._attributes[key] = {f"self.{name}": value for name, value in facts}  # @dataclass fields
        if key not in self._attributes:
            self._attributes[key] = constants = self._class_constants(class_name)
            init = self.methods.get((class_name, "__init__"))
            if init is not None:
                stores = self._stores(class_name)
                interp = self._make(lambda *a: None, lambda *a: None)
                interp.module = self
                interp.call_depth = MAX_DEPTH - 1  # calls out of __init__ run with its facts, one level deep
                interp.class_name = class_name
                interp._building = True  # super().__init__(...) runs the parent's (class_lineage)
                interp.reports = False
                interp.run_function(init, dict(facts))
                self._attributes[key] = {**constants, **{
                    k: attribute_stores.held(value, stores.get(k[5:])) for k, value in interp.env.items()
                    if k.startswith("self.") and k[5:] in stores and k.count(".") == 1
                    and not isinstance(value, type(None)) and k[5:] not in interp.informal}}
        return self._attributes[key]

    def property_value(self, caller, instance: InstanceVal, attr: str, node: ast.Attribute):
        """`cfg.patches_per_image` of a `@property` the instance's class defines: its getter run on the instance."""
        getter = self.methods.get((instance.class_name, attr))
        if getter is None or not any(tree_walk.last_name(d) in ("property", "cached_property")
                                     for d in getter.decorator_list):
            return None
        call = ast.copy_location(ast.Call(func=node, args=[], keywords=[]), node)
        return self.call(caller, getter, call, [instance], {}, instance, silent=True)

    def class_and_bases(self, class_name: str) -> list:
        """The class of this file and the file's classes it derives from (class_lineage), the class first."""
        return [self.classes[class_name]] + [self.classes[p] for p in self.lineage.get(class_name, ())]

    def _class_constants(self, class_name: str) -> Dict[str, object]:
        """`vocab_size = 50` or `padding_side = "left"` in a class body (or a base's of this file): an int, a
        string or a bool every instance reads as `self.vocab_size`, unless a method assigns the name on the
        instance."""
        lineage = self.class_and_bases(class_name)
        found: Dict[str, object] = {}
        for cls in reversed(lineage):  # the class's own binding wins over its bases'
            for stmt in cls.body:
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
                    stmt.target if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else None
                value = stmt.value if target is not None else None
                if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and type(value.value) is int:
                    found[f"self.{target.id}"] = DimVal(value.value)
                elif isinstance(target, ast.Name) and isinstance(value, ast.Constant) and type(value.value) in (str, bool):
                    found[f"self.{target.id}"] = Literal(value.value)  # padding_side = "left", causal = True
                elif isinstance(stmt, ast.AnnAssign) and stmt.value is None and isinstance(stmt.target, ast.Name):
                    # `_q_func: QFunction` declared in the body (a mixin's): an instance of that module class
                    held = annotated_module(self.classes, stmt.annotation)
                    if held is not None:
                        found[f"self.{stmt.target.id}"] = held
        if found:
            stored = {n.attr for cls in lineage for n in ast.walk(cls) if isinstance(n, ast.Attribute)
                      and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) and n.value.id == "self"}
            found = {k: v for k, v in found.items() if k[5:] not in stored}
        return found

    def _stores(self, class_name: str) -> Dict[str, str]:
        """The attributes whose __init__ fact every method sees (attribute_stores)."""
        if class_name not in self._store_counts:
            self._store_counts[class_name] = attribute_stores.settled_attributes(
                self.class_and_bases(class_name), self.methods.get((class_name, "__init__")))
        return self._store_counts[class_name]

    def instantiate(self, class_name: str, args, kwargs) -> InstanceVal:
        """`QNet(4, 2)`: an instance remembering the constructor arguments __init__ binds. Built from
        arguments that are not all known (`Block(config)`), it stays opaque: its forward is not run."""
        init = self.methods.get((class_name, "__init__"))
        if init is None and self._is_config(class_name):
            interp = self._make(lambda *a: None, lambda *a: None)
            return InstanceVal(class_name, dataclass_configs.bind(self.classes[class_name], args, kwargs, interp.expr))
        if init is None:  # an inherited __init__ takes whatever arguments this call passes
            return InstanceVal(class_name, None if args or kwargs else ())
        facts = bind(init, [None] + list(args), kwargs)
        if facts is None or (len(facts) < len(args) + len(kwargs) and not _partly_known(facts, args, kwargs)):
            return InstanceVal(class_name, None)
        facts.update(number_defaults(init, len(args) + 1, kwargs, self._constants()))
        return InstanceVal(class_name, tuple(sorted(facts.items(), key=lambda kv: kv[0])))

    def _constants(self) -> dict:
        """The module's constants (`PAD_ID = -1`) by name, as every interpreter of the module starts with them."""
        if self.__dict__.get("_constant_names") is None:
            env = self._make(lambda *a: None, lambda *a: None).env
            self._constant_names = {name: v for name, v in env.items() if isinstance(v, DimVal)}
        return self._constant_names

    def _is_config(self, class_name: str) -> bool:
        """A @dataclass of this file without an __init__ of its own: its fields are its attributes."""
        cls = self.classes.get(class_name)
        return cls is not None and (class_name, "__init__") not in self.methods and dataclass_configs.is_dataclass(cls)

    def call_instance(self, caller, instance: InstanceVal, node: ast.Call, args, kwargs, silent: bool = False):
        """`q_net(obs)`: the class's forward, with the attributes its constructor arguments built."""
        forward = self.methods.get((instance.class_name, "forward")) or self.methods.get((instance.class_name, "__call__"))
        if forward is None or (instance.facts is None and not self.scripted):
            return None
        # an instance built from unknown arguments (`QNet(cfg.obs_dim, cfg.n_actions)`) still runs its
        # forward with this call's tensors, on the attributes its __init__ builds without them
        return self.call(caller, forward, node, [None] + list(args), kwargs, instance, silent)

    def _drives(self, caller) -> bool:
        """The caller is the script's `main()`, which the `__main__` guard calls: a driver, as the body is."""
        if self._drivers is None:
            self._drivers = script_drivers.driver_functions(self.tree)
        function = getattr(caller, "function", None)
        return function is not None and caller.call_depth <= 1 and function.name in self._drivers \
            and not (function.args.args or function.args.posonlyargs or function.args.kwonlyargs)

    def analyse(self, node):
        """A function's own analysis, without caller facts: run once, reporting through `own`; its
        result also serves every call that brings no facts."""
        key = (node, ())
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # recursion guard
        interp = self._make(*self.own)
        interp.module = self
        try:
            interp.run_function(node)
        except Exception as exc:  # the fault costs this function only; its callers get an unknown result
            if self.fault is None or not scope_faults.contained(exc):
                raise
            self.fault(node, exc)
            return None
        self._memo[key] = result_of(interp)
        autograd_ctx.keep(self, node, interp)
        return self._memo[key]

    def call(self, caller, callee, node: ast.Call, args, kwargs, instance: Optional[InstanceVal] = None,
             silent: bool = False, extra: Optional[Dict[str, object]] = None):
        """The callee's result under this call's facts. `silent`: for the result only, reporting nothing
        (the caller's shape comments may shape what it returns, not what is checked inside it). `extra`: facts
        of names other than parameters (`ctx.saved_tensors` for a custom Function's backward)."""
        self.fitted_at.pop(id(node), None)  # what an earlier run of this call left is not this run's
        self.last_context.pop(callee, None)
        if not decorated_calls.passes_facts(callee):
            return None  # a wrapper of unknown effect stands between the call and the def
        spread = any(k.arg is None for k in node.keywords)  # **options may set any parameter
        facts = bind(callee, args, kwargs, defaults=not spread)
        if facts is None:
            return None
        facts.update(extra or {})
        if caller.call_depth >= MAX_DEPTH:
            return self.analyse(callee)  # too deep for the caller's facts: the callee's own result still holds
        if caller.class_name is not None and self.class_of.get(callee) in (
                caller.class_name, *self.lineage.get(caller.class_name, ())):
            if instance is None:
                instance = caller.instance  # self.method(...) inside an instance's forward (an inherited one too)
            facts.update(_set_before(caller, callee))  # self.centers = ... then self._assign(X): the new centers
        instance_facts = instance.facts if instance is not None and instance.facts else ()
        # with nothing from the caller the callee's findings are its own analysis's: only its result counts
        summary_only = not instance_facts and not any(_informative(v) for v in facts.values())
        if summary_only and caller.in_function and not self._drives(caller):
            # a library's helpers: the own analysis serves (defaults cost a run each), but a shape it returns
            # only because its docstring sized a tensor the caller passed unsized stays home (an elementwise
            # helper documented `Shape (N,)` is handed [N, 3] as well)
            result = self.analyse(callee)
            return value_facts(result) if _passed_unsized(callee, facts) else result
        if not spread:
            defaults = number_defaults(callee, len(args), kwargs, self._constants())
            facts.update(defaults)
            # a driver's `run()`: the defaults are this call's values, its findings the driver's
            summary_only = summary_only and not any(_informative(v) for v in defaults.values())
        if summary_only and not facts:
            return self.analyse(callee)
        # a run for a quiet caller (one computing a result only) reports nothing: memoised apart, so that a
        # reporting caller with the same facts later runs it again instead of finding its findings dropped
        quiet = silent or not caller.reports
        ordered = tuple(sorted(facts.items(), key=lambda kv: kv[0]))
        given = passed_tensors.made_by_caller(caller, callee, node, len(args) - len(node.args), facts)
        # a named size is equal by its name alone: `nb` of 2 and `nb` of 64 are two runs, not one
        key = (callee, ordered, _sizes(ordered), _sizes(instance_facts), instance_facts, quiet, given)
        try:
            if key in self._memo:
                self.fitted_at[id(node)] = self._fitted.get(key)
                if key in self._contexts:
                    self.last_context[callee] = self._contexts[key]
                return self._memo[key]
        except TypeError:
            return None  # an unhashable fact: do not memoise, do not analyse
        if self._runs.get(callee, 0) >= MAX_RUNS_PER_FUNCTION:
            return self.analyse(callee)
        self._runs[callee] = self._runs.get(callee, 0) + 1
        self._memo[key] = None  # recursion guard
        line = node.lineno
        batch_of_one = getattr(caller, "batch_of_one", False) or any(_one_sample(v) for v in facts.values())
        interp = self._make(lambda *a: None, lambda *a: None) if summary_only or quiet else self._make(
            _reporter(caller, callee, node, len(args) - len(node.args), line, batch_of_one),
            lambda flagged, violation, fix_node: caller.flag(node if isinstance(flagged, PassedIn) else flagged,
                                                             _from_call(violation, line), fix_node))
        interp.reports = not (summary_only or quiet)
        interp.facts_from_calls = (line,) + caller.facts_from_calls
        interp.module = self
        interp.call_depth = caller.call_depth + 1
        interp.ones_passed = degenerate_softmax.ones_passed(caller, facts, instance_facts)  # a size 1 from data
        interp.batch_of_one = batch_of_one
        # an inherited method runs on the instance's own class: its __init__ (own or inherited) built the attributes
        interp.class_name = instance.class_name if instance is not None else self.class_of.get(callee)
        interp.instance = instance
        interp.given_tensors = given
        try:
            interp.run_function(callee, facts)
        except Exception as exc:  # a fault under this call's facts: the call's result is unknown, the caller goes on
            if self.fault is None or not scope_faults.contained(exc):
                raise
            self.fault(callee, exc, node.lineno)
            return None
        result = renamed_sizes.in_caller_words(result_of(interp), interp.size_renames)
        if _passed_unsized(callee, facts):
            result = value_facts(result)
        self._memo[key] = result
        context = autograd_ctx.context_of(callee, interp)  # a custom Function's forward: what its backward gets
        if context is not None:
            self._contexts[key] = self.last_context[callee] = context
        if instance is not None:  # what a method stored, for `obj.fit(...)` statements (fitted_instances)
            self._fitted[key] = self.fitted_at[id(node)] = fitted_instances.stored(interp)
        return result


def _sizes(facts) -> tuple:
    """The known values behind the named sizes of a run's facts (tensors' dims and ints), for its memo key."""
    found = []
    for _, fact in facts:
        shape = fact.shape if isinstance(fact, TensorVal) else None
        if shape is not None:
            found.append(tuple(value_of(d) for d in shape.dims))
        elif isinstance(fact, DimVal):
            found.append(value_of(fact.dim))
        else:
            found.append(None)
    return tuple(found)


def _one_sample(value) -> bool:
    """A batch of one that the caller's data holds: `f([sample])`, or a tensor of one row
    (`torch.tensor([[101, 7, 102]])`), whose size 1 is the batch's and not a dim left unexpanded."""
    if isinstance(value, ListVal):
        return len(value.items) == 1
    shape = value.shape if isinstance(value, TensorVal) else None
    return shape is not None and not shape.variadic and len(shape.dims) >= 2 and value_of(shape.dims[0]) == 1


def _ones_may_be_the_batch(site) -> bool:
    """The index's size 1 sits where the input's size is not known: under a batch of one it may be 1 too."""
    index, given = getattr(site.index, "shape", None), getattr(site.input, "shape", None)
    if index is None or given is None or len(index.dims) != len(given.dims):
        return True
    return any(value_of(i) == 1 and value_of(g) is None for i, g in zip(index.dims, given.dims))


def _reporter(caller, callee, node: ast.Call, implicit: int, line: int, batch_of_one: bool):
    """The callee's site findings go to the caller, a dim the caller passed in at the caller's call.
    When the caller passes a one-item list (a batch of one, as a per-sample reference does), an index's
    size 1 may be that batch's and not an unexpanded dim: GL005 is left to the callee's own analysis."""
    def report(call, site, violations, bound=None, where=None):
        violations = [_from_call(v, line) for v in violations
                      if not (batch_of_one and v.code == "GL005" and _ones_may_be_the_batch(site))]
        stay, moved, at_caller = passed_dims.moved(callee, node, implicit, violations, bound)
        if moved:  # now at the caller's call, decided by its argument: the calls that bring facts there follow
            caller.report(node, site, [replace(v, calls=()) for v in moved], at_caller, where)
        if stay or not moved:
            caller.report(call, site, stay, bound, where)
    return report


def result_of(interp):
    """What calling `function` gives: its returns joined, or, for a generator, the list of the items it
    yields (`for xb, yb in batches(x, y, 16)` gets each yielded pair)."""
    if not interp.yields:  # (a generator whose yields the run never reached gives nothing known either)
        return join_all(interp.returns)
    items = interp.yields
    item = join_all(items) if items and all(r is not None for r in items) else None
    return Repeated(item) if item is not None else None


def _from_call(v, line: int):
    """A callee's finding under one caller's facts, noting the call (the analyzer names the calls once).
    Its fixes would edit the callee, which serves other calls too (a `.long()` there hides a float index
    the caller still uses elsewhere, a dim made for this caller's values is another's mistake): kept are a
    fix at the cause, in the caller's own code (the `/` that made the float), and the shape fixes written
    in the callee's own names (`.expand(-1, x.size(1))`, `.squeeze(-1)`), which the analyzer keeps only
    when every call that checked the site with facts asks for the same one."""
    shape_fix = v.code in _SHAPE_FIXES
    return replace(v, calls=v.calls + (line,), fix_suffix=v.fix_suffix if shape_fix else None, fix_dim=None,
                   fix_result_suffix=v.fix_result_suffix if shape_fix else None, fix_keyword=None,
                   fix_statement=None, fix_argument=v.fix_argument if shape_fix else None)


_SHAPE_FIXES = ("GL001", "GL005", "GL006", "GL009")  # their fixes add or drop dims, sized by the tensor's own size


def _partly_known(facts, args, kwargs) -> bool:
    """Some constructor arguments known, and the unknown ones plain values (`Encoder(len(vocab), 8)`):
    the known sizes build their layers, the unknown ones stay unknown in forward as they would alone."""
    given = list(args) + list(kwargs.values())
    return any(_informative(v) for v in facts.values()) and all(v is None or isinstance(v, FACTS) for v in given)


def _written(value) -> bool:
    """A list of numbers written out, or of such lists (`[[1, 2], [0], [0, 1, 3]]`)."""
    return isinstance(value, ListVal) and bool(value.items) and all(
        isinstance(v, DimVal) and isinstance(value_of(v.dim), int) or isinstance(v, Literal) or _written(v)
        for v in value.items)


def _set_before(caller, callee) -> Dict[str, object]:
    """The tensors a method stored on self before it calls another method of the instance, where the callee
    reads them (`self.centers = X[...]` in fit, then `self._assign(X)`): the callee sees those, not __init__'s.
    (Tensors of a known shape or dtype only: a stored int, or a tensor known by its name alone, would run the
    callee with the call's other arguments, which may be NumPy or SciPy arrays the analysis cannot tell from
    tensors.)"""
    function = getattr(caller, "function", None)
    if function is None:
        return {}
    read = {node.attr for node in tree_walk.all_nodes(callee) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "self" and isinstance(node.ctx, ast.Load)}
    stored = set(attribute_stores.stored_names(function)) & read
    return {f"self.{name}": caller.env[f"self.{name}"] for name in sorted(stored)
            if _shaped(caller.env.get(f"self.{name}"))}


def _shaped(value) -> bool:
    """A tensor whose shape or dtype the code made known."""
    return isinstance(value, TensorVal) and (value.shape is not None or value.dtype is not None)


def _floats(seq) -> bool:
    """A list of Python floats: a tensor's `tolist()`, rewards collected one by one."""
    items = (seq.element,) if isinstance(seq, Repeated) else seq.items if not seq.names else ()
    return bool(items) and all(is_float_number(i) for i in items)


def _informative(value) -> bool:
    if isinstance(value, InstanceVal):
        return value.facts is not None
    if isinstance(value, (LayerVal, KeepShape, Sequential, Recurrent, LayerList, ArrayVal, Cell, Conv)):
        return True
    if isinstance(value, DictVal):
        return any(v is not None for _, v in value.items)
    if isinstance(value, TensorVal):
        return value.shape is not None or value.dtype is not None or value.domain is not None  # padding put in
    if isinstance(value, ListVal) and _written(value):
        return True  # ids or tokens written out (`tok.encode([3, 17])`, neighbour lists): their values may decide a range
    if isinstance(value, SeqVal) and not value.names and value.items and all(isinstance(v, Literal) for v in value.items):
        return True  # words written out (`"the plot of the movie".split()`): their count sizes what is made of them
    if isinstance(value, SeqVal) and value.items and all(sequences.sized(v) for v in value.items):
        return True  # lists of known lengths (documents of token ids): the longest sizes the batch made of them
    if isinstance(value, (SeqVal, Repeated)) and _floats(value):
        return True  # rewards as Python floats (`x.tolist()`): a tensor made of them is 1-d
    if isinstance(value, SeqVal):  # tensors, or records (a list of dicts handed to a collate, of dataclass items)
        return any(isinstance(v, (TensorVal, DictVal, InstanceVal)) and _informative(v) for v in value.items)
    if isinstance(value, Repeated):  # a list of like batches or cache entries
        return _informative(value.element)
    if isinstance(value, QualName):  # a loss module or a torch function handed in (`criterion=nn.MSELoss()`)
        return True
    if isinstance(value, DatasetVal):  # a TensorDataset handed in: its rows and their count
        return True
    return isinstance(value, DimVal) and value_of(value.dim) is not None


def _cast_to_float(declared: TensorVal, given: TensorVal) -> bool:
    """Ids declared integer that the caller's code certainly made float (a cast, a true division)."""
    return declared.dtype in ("int64", "int32") and given.dtype is not None and given.dtype.startswith(("float", "bfloat")) \
        and given.domain is not None and given.domain.made_float is not None


def _other_rank(declared: Shape, given: Optional[Shape]) -> bool:
    """An annotated `Int[Tensor, "batch"]` passed a [B, 1] tensor by code that proves it."""
    return given is not None and not declared.variadic and not given.variadic and len(declared.dims) != len(given.dims)


def _other_size(declared: Shape, given: Optional[Shape]) -> bool:
    """An annotated `Float[Tensor, "batch 1"]` passed a [64, 4] tensor: a written size the code proves
    otherwise (an expectation over actions never summed); like a rank, the call runs with that tensor."""
    if given is None or declared.variadic or given.variadic or len(declared.dims) != len(given.dims):
        return False
    return any(isinstance(d, int) and value_of(g) is not None and value_of(g) != d
               for d, g in zip(declared.dims, given.dims))


def _fills_variadic(declared: Shape, given: Optional[Shape]) -> bool:
    """`Float[Tensor, "..."]` (any rank) called with a [B, T, F] tensor: the call's shape is the better
    fact. Only a bare `...`: named trailing dims keep the annotation's names."""
    return declared.variadic and not declared.dims and given is not None and not given.variadic


def _sized(declared: Shape, given: Optional[Shape]) -> Shape:
    """An annotation's names with the sizes a call gives them: `vocab` called with 4096 is vocab=4096. A
    `"... vocab"` called with [8, 64, 28] is [8, 64, vocab=28]: the call's leading dims, the annotation's names."""
    if given is not None and declared.variadic and declared.dims and not given.variadic \
            and len(given.dims) >= len(declared.dims):
        lead = len(given.dims) - len(declared.dims)
        trailing = _sized(Shape(declared.dims), Shape(given.dims[lead:]))
        return Shape(tuple(given.dims[:lead]) + trailing.dims) if trailing.dims is not declared.dims else declared
    if given is None or declared.variadic or given.variadic or len(declared.dims) != len(given.dims):
        return declared
    dims = []
    for written, seen in zip(declared.dims, given.dims):
        size = value_of(seen)
        if isinstance(written, int) and size is not None and size != written:
            return declared  # the call disagrees with the annotation: keep the annotation
        if isinstance(written, Sym) and written.size is None and size is not None:
            written = Sym(written.name, expr=written.expr, size=size)
        dims.append(written)
    return Shape(tuple(dims))


def _passed_unsized(callee, facts: dict) -> bool:
    """A tensor of unknown shape passed for a parameter whose shape the callee's docstring states."""
    documented = documented_shapes(callee)
    return bool(documented) and any(isinstance(v, TensorVal) and v.shape is None and name in documented
                                    for name, v in facts.items())


def value_facts(value):
    """What code (not a shape comment) proved about an argument: its dtype and how its values were
    made (true division, a low-precision round trip, padding put in). Shapes read from comments stay
    home: good evidence beside the code they describe, too informal to carry into another function."""
    if isinstance(value, InstanceVal):
        return value
    if isinstance(value, DictVal):  # a batch dict built from commented tensors: their shapes stay home too
        return DictVal(tuple((k, v if not isinstance(v, TensorVal) else value_facts(v)) for k, v in value.items))
    if isinstance(value, SeqVal):
        return SeqVal(tuple(v if not isinstance(v, TensorVal) else value_facts(v) for v in value.items), value.names)
    if not isinstance(value, TensorVal):
        return None
    kept = value_kind(value.domain)
    entries = exact_values.of(value)
    if entries is not None:  # values the code wrote out: their sizes are the data's, whatever a comment named
        return TensorVal(Shape(entries.dims), value.dtype, kept, entries=entries, exact_dtype=value.exact_dtype)
    return TensorVal(None, value.dtype, kept, exact_dtype=value.exact_dtype) \
        if value.dtype is not None or kept is not None else None


def share_sizes(env: dict, names) -> None:
    """A size one argument gives a declared name holds for that name in every parameter: `labels: "b n"`
    called with [1, 10] makes `logits: "b n v"` [1, 10, v] too, though its own argument said nothing. One
    name is one dim (Sym equality is by name); a fact without its size would read as another size."""
    sizes: dict = {}
    for name in names:
        shape = getattr(env.get(name), "shape", None)
        for d in shape.dims if shape is not None else ():
            if isinstance(d, Sym) and d.size is not None:
                sizes.setdefault(d.name, d.size)
    if not sizes:
        return
    for name in names:
        fact = env.get(name)
        shape = getattr(fact, "shape", None)
        if not isinstance(fact, TensorVal) or shape is None or not any(
                isinstance(d, Sym) and d.size is None and d.name in sizes for d in shape.dims):
            continue
        dims = tuple(Sym(d.name, expr=d.expr, size=sizes[d.name]) if isinstance(d, Sym) and d.size is None
                     and d.name in sizes else d for d in shape.dims)
        env[name] = fact.with_(shape=Shape(dims, shape.variadic))


def fill_gaps(declared, fact):
    """A parameter's own facts (annotation, docstring) win; the caller's fill what they leave open."""
    if fact is None:
        return declared
    if declared is None or isinstance(declared, InstanceVal) and isinstance(fact, InstanceVal):
        return fact  # `critic: Critic` called with Critic(6, 4): the built instance knows its sizes
    if isinstance(declared, TensorVal) and (isinstance(fact, InstanceVal) or is_layer(fact)):
        return fact  # `model: classifier returning probabilities of shape (n, c)`: the shape is its output's
    if isinstance(declared, TensorVal) and isinstance(fact, Literal) and fact.value is None:
        return fact  # `position_ids (*optional*)` left at its None default: the `is None` branch is the one that runs
    if isinstance(declared, TensorVal) and isinstance(fact, TensorVal):
        if _cast_to_float(declared, fact):  # `LongTensor` in the docstring, but the caller's `.to(bf16)` is code
            declared = declared.with_(dtype=fact.dtype, domain=fact.domain)
        if declared.shape is None or _other_rank(declared.shape, fact.shape) or _other_size(declared.shape, fact.shape) \
                or _fills_variadic(declared.shape, fact.shape):
            # a rank the caller's code proves wins over the annotation: this call runs with that tensor
            return fact.with_(dtype=declared.dtype or fact.dtype, domain=declared.domain or fact.domain)
        return declared.with_(shape=_sized(declared.shape, fact.shape), dtype=declared.dtype or fact.dtype,
                              domain=declared.domain or fact.domain, normalised=declared.normalised or fact.normalised,
                              written=fact.written,  # the caller's literal rows: a docstring names their sizes only
                              entries=fact.entries,  # and their values
                              left_padded=fact.left_padded,  # and how the caller padded them
                              non_negative=declared.non_negative or fact.non_negative,  # and their signs
                              signed=declared.signed or fact.signed,
                              exact_dtype=fact.exact_dtype)  # a dtype the caller's code made for certain
    if isinstance(declared, DimVal) and value_of(declared.dim) is None and isinstance(fact, DimVal):
        return fact
    if isinstance(declared, NumberVal) and (isinstance(fact, (DimVal, SeqVal)) or isinstance(fact, Literal)):
        return fact  # `alpha: float = 0.25` given 0.5, or a list: the call's value is the better fact
    if isinstance(declared, Repeated) and type(fact) in (SeqVal, ListVal) and not fact.names:
        return fact  # `ids: list[int]` given [3, 14, 15]: the list itself says more than its annotation
    return declared
