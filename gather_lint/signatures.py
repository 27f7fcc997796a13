"""The family's Python signatures, as torch's argument parser enforces them (GL033).

torch refuses a call whose arguments fit none of an op's overloads with a TypeError: a keyword the op does not
have (`scatter_add(..., source=s)`), a required argument left out (`scatter_reduce` without `reduce`), more
positionals than it takes (`sparse_grad`, `alpha` and `include_self` are keyword-only), or an argument of the
wrong kind (a tensor as `dim`, a Python number as `src=`, a list as `index`). Both halves ask `refusal` with
what they know of each argument (`Kind`): the static half from its abstract values, the runtime from the real
ones. Unknown kinds fit anything, so a refusal is reported only when every overload is ruled out for certain.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .ops import Op, torch_keywords

TENSOR, INT, SCALAR, TENSOR_OR_SCALAR, STR, BOOL, ANY = "tensor", "int", "scalar", "tensor_or_scalar", "str", "bool", "any"


@dataclass(frozen=True)
class Kind:
    """What is known of one argument: its Python type ("tensor", "int", "float", "bool", "str", "none",
    "list", "tuple", "ndarray"), and for a tensor its rank and whether its dtype is integral (None: unknown)."""

    type: str
    rank: Optional[int] = None
    integral: Optional[bool] = None

    def describe(self) -> str:
        if self.type == "tensor":
            if self.rank is not None and self.rank >= 1:
                return f"a tensor with {self.rank} dim{'s' if self.rank != 1 else ''}"
            if self.rank == 0 and self.integral is False:
                return "a floating-point tensor"
            return "a tensor"
        return {"int": "an int", "float": "a float", "bool": "a bool", "str": "a string", "none": "None",
                "list": "a list", "tuple": "a tuple", "sequence": "a tuple or other sequence",
                "ndarray": "a numpy array"}.get(self.type, self.type)


@dataclass(frozen=True)
class Param:
    name: str
    accepts: str  # TENSOR, INT (a Python int or a 0-d integral tensor), SCALAR, TENSOR_OR_SCALAR, STR, BOOL, ANY
    required: bool = True
    keyword_only: bool = False
    optional_none: bool = False  # `int? dim=None`: None is a value it takes


_DIM, _INDEX = Param("dim", INT), Param("index", TENSOR)
# Each op's overloads after `self` (method form); the function form puts `input` first and takes `out=`.
OVERLOADS: Dict[str, Tuple[Tuple[Param, ...], ...]] = {
    "gather": ((_DIM, _INDEX, Param("sparse_grad", BOOL, False, True)),),
    "scatter": ((_DIM, _INDEX, Param("src", TENSOR), Param("reduce", STR, False, True)),
                (_DIM, _INDEX, Param("value", SCALAR), Param("reduce", STR, False, True))),
    "scatter_add": ((_DIM, _INDEX, Param("src", TENSOR)),),
    "scatter_reduce": ((_DIM, _INDEX, Param("src", TENSOR), Param("reduce", STR), Param("include_self", BOOL, False, True)),),
    "index_select": ((_DIM, _INDEX),),
    "index_add": ((_DIM, _INDEX, Param("source", TENSOR), Param("alpha", SCALAR, False, True)),),
    "index_copy": ((_DIM, _INDEX, Param("source", TENSOR)),),
    "index_fill": ((_DIM, _INDEX, Param("value", TENSOR_OR_SCALAR)),),
    "take_along_dim": ((Param("indices", TENSOR), Param("dim", INT, False, optional_none=True)),),
}

# A keyword another op of the family spells differently: what the author most likely meant.
_ALIASES = {"source": "src", "src": "source", "index": "indices", "indices": "index", "input": "self"}


@dataclass(frozen=True)
class Problem:
    what: str  # "keyword", "missing", "positional", "kind", "twice"
    param: str = ""  # the parameter (or the keyword given)
    kind: Optional[Kind] = None
    given: int = 0  # positionals given ("positional")


@dataclass(frozen=True)
class Refusal:
    """Why torch refuses the call, in the terms of its closest overload."""

    op: Op
    method: bool
    params: Tuple[Param, ...]
    problems: Tuple[Problem, ...]
    positional: int  # how many arguments the call passes positionally

    def signature(self) -> str:
        """The op's parameters, overloads merged: `Tensor.scatter_(dim, index, src or value, *, reduce=...)`."""
        shown, star = [], False
        lead = 0 if self.method else 1  # the function form's `input` comes before the overloads' parameters
        others = [o for o in OVERLOADS[self.op.name] if len(o) == len(self.params) - lead]
        for k, p in enumerate(self.params):
            if p.keyword_only and not star:
                shown.append("*")
                star = True
            names = [p.name] + [o[k - lead].name for o in others if 0 <= k - lead < len(o)]
            name = " or ".join(dict.fromkeys(names))
            shown.append(name if p.required else f"{name}=...")
        owner = "Tensor." if self.method else "torch."
        return f"{owner}{self.op.spelled}({', '.join(shown)})"

    def sentence(self) -> str:
        """The problem, in words: what the signature wants and what the call gives."""
        missing = [p.param for p in self.problems if p.what == "missing"]
        said = [_said(self, p) for p in self.problems if p.what != "missing"]
        if len(missing) == 1:
            said.append(f"`{missing[0]}` is not given")
        elif missing:
            said.append(", ".join(f"`{m}`" for m in missing[:-1]) + f" and `{missing[-1]}` are not given")
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]

    def fix(self) -> Optional[str]:
        """What to write instead, when the call shows it; None when only the author knows."""
        first = self.problems[0]
        renamed = self.renamed()
        if renamed is not None:
            return f"rename `{renamed[0]}=` to `{renamed[1]}=`"
        if first.what == "keyword":
            if first.param == "input" and self.method:
                return "drop `input=`: the method's tensor is the one it is called on"
            if first.param == "out" and self.method:
                return f"call `torch.{self.op.spelled}(...)` to write into `out=`, or assign the result"
        if first.what == "positional":
            extra = [p.name for p in self.params if p.keyword_only]
            if extra:
                return f"pass {' or '.join(f'`{n}=`' for n in extra)} by keyword"
        if first.what == "missing" and first.param == "dim" and len(self.problems) == 1:
            return "pass the dim first: the call's arguments are the ones that follow it"
        if first.what == "missing" and first.param == "reduce" and self.op.name == "scatter_reduce":
            return "name the reduction: 'sum', 'prod', 'mean', 'amax' or 'amin'"
        if first.what == "kind" and first.param == "dim" and self.op.name == "gather" and not self.method \
                and self.positional == 2:
            return "`torch.gather(input, dim, index)` takes a dim first; for whole rows picked by an index vector " \
                   "use `torch.index_select(input, 0, index)`"
        if first.what == "kind" and first.param == "input" and first.kind is not None \
                and first.kind.type in ("tuple", "sequence"):
            return "apply the op to each tensor it holds (a tuple of tensors, such as a cached (key, value) pair, is no tensor)"
        if first.what == "kind" and first.kind is not None and first.kind.type in ("list", "tuple", "sequence", "ndarray") \
                and _accepts(self.params, first.param) == TENSOR:
            return f"make `{first.param}` a tensor (`torch.as_tensor(...)`)"
        return None

    def renamed(self) -> Optional[Tuple[str, str]]:
        """(given, meant) when one keyword has another op's spelling of a parameter this op lacks a value
        for (`source=` for scatter_add's `src`), or names scatter's tensor where a number is given
        (`src=0` for `value=0`); None otherwise."""
        first = self.problems[0]
        if len(self.problems) == 1 and first.what == "kind" and first.param == "src" and self.op.name == "scatter" \
                and first.kind is not None and first.kind.type in ("int", "float", "bool"):
            return "src", "value"  # scatter_(d, idx, src=0): a number is written through value=
        keywords = [p.param for p in self.problems if p.what == "keyword"]
        missing = [p.param for p in self.problems if p.what == "missing"]
        if len(keywords) == 1 and _ALIASES.get(keywords[0]) in missing and len(missing) == 1 \
                and len(self.problems) == 2:
            return keywords[0], _ALIASES[keywords[0]]
        return None


def _accepts(params, name) -> Optional[str]:
    return next((p.accepts for p in params if p.name == name), None)


def _said(refusal: Refusal, problem: Problem) -> str:
    if problem.what == "keyword":
        return f"`{problem.param}=` is not one of its parameters"
    if problem.what == "twice":
        return f"`{problem.param}` is given by position and again by keyword"
    if problem.what == "positional":
        takes = sum(1 for p in refusal.params if not p.keyword_only)
        return f"{problem.given} arguments are passed by position where it takes {takes}"
    wanted = {TENSOR: "a tensor", INT: "an int", SCALAR: "a number", STR: "a string",
              TENSOR_OR_SCALAR: "a number or a 0-d tensor", BOOL: "True or False"}[_accepts(refusal.params, problem.param)]
    return f"`{problem.param}` must be {wanted}, not {problem.kind.describe()}"


def refusal(op: Op, method: bool, positional: Sequence[Optional[Kind]],
            keywords: Mapping[str, Optional[Kind]]) -> Optional[Refusal]:
    """Why torch's parser refuses this call for certain; None when some overload may take it.

    `positional` and `keywords` hold a Kind per argument (None: unknown). For the function form the first
    positional (or `input=`) is the tensor the op reads."""
    keywords = torch_keywords(keywords)
    best: Optional[Refusal] = None
    for params in OVERLOADS[op.name]:
        if not method:
            params = (Param("input", TENSOR),) + params + (Param("out", TENSOR, False, True, optional_none=True),)
        problems = _problems(params, positional, keywords)
        if not problems:
            return None
        if best is None or _weight(problems) < _weight(best.problems):
            best = Refusal(op, method, params, tuple(problems), len(positional))
    if best is not None and not method and best.params[-1].name == "out":
        best = Refusal(op, method, best.params[:-1], best.problems, best.positional)  # out= is not the point
    if best is not None and method and _dim_left_out(op, positional, keywords):
        # `x.scatter_(index, 1.0)`: the arguments are the rest of a signature that starts with a dim
        best = Refusal(op, method, best.params, (Problem("missing", "dim"),), len(positional))
    return best


def _dim_left_out(op: Op, positional, keywords) -> bool:
    """`x.scatter_(index, 1.0)`: the method's arguments fit an overload once its leading `dim` is given, the
    first of them no int (a tensor, or not known), and no `dim=`. (The function form has its own advice.)"""
    if "dim" in keywords or not positional or positional[0] is not None and positional[0].type != "tensor":
        return False
    return any(params and params[0].name == "dim" and not _problems(params[1:], positional, keywords)
               for params in OVERLOADS[op.name])


def _weight(problems) -> int:
    return sum(2 if p.what == "missing" else 1 for p in problems)


def _problems(params: Tuple[Param, ...], positional, keywords) -> List[Problem]:
    problems: List[Problem] = []
    plain = [p for p in params if not p.keyword_only]
    if len(positional) > len(plain):
        problems.append(Problem("positional", given=len(positional)))
    given: Dict[str, Optional[Kind]] = {p.name: k for p, k in zip(plain, positional)}
    by_name = {p.name: p for p in params}
    twice: List[Problem] = []
    for name, kind in keywords.items():
        if name not in by_name:
            problems.append(Problem("keyword", name))
        elif name in given:
            twice.append(Problem("twice", name))  # torch names the positional's kind first, when it is wrong
        else:
            given[name] = kind
    for p in params:
        if p.name not in given:
            if p.required:
                problems.append(Problem("missing", p.name))
        elif not _fits(p, given[p.name]):
            problems.append(Problem("kind", p.name, given[p.name]))
    return problems + twice


def _fits(param: Param, kind: Optional[Kind]) -> bool:
    """False only when the kind is known and the parser refuses it for this parameter."""
    if kind is None or param.accepts == ANY:
        return True
    t = kind.type
    if t == "none":
        return param.optional_none
    if param.accepts == TENSOR:
        return t == "tensor"
    if param.accepts == INT:
        if t == "tensor":  # a 0-d integral tensor passes as an int
            return not ((kind.rank is not None and kind.rank >= 1) or kind.integral is False)
        return t == "int"
    if param.accepts == SCALAR:
        if t == "tensor":
            return not (kind.rank is not None and kind.rank >= 1)
        return t in ("int", "float", "bool")
    if param.accepts == TENSOR_OR_SCALAR:
        return t in ("tensor", "int", "float", "bool")
    if param.accepts == STR:
        return t == "str"
    if param.accepts == BOOL:
        return t == "bool"
    return True


# The reductions each op takes by name, and the words torch raises for any other string (a RuntimeError from the
# op, after the parser took the call). scatter_reduce also takes 'max' and 'min' on CPU.
REDUCTIONS: Dict[str, Tuple[Tuple[str, ...], str]] = {
    "scatter": (("add", "multiply"), "reduce argument must be either add or multiply."),
    "scatter_reduce": (("sum", "prod", "mean", "amax", "amin", "max", "min"),
                       "reduce argument must be either sum, prod, mean, amax or amin, got {given}"),
}
# what a name refused by one op means in the other's terms
_MEANT = {"add": "sum", "multiply": "prod", "sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax",
          "amin": "amin", "max": "amax", "min": "amin"}


@dataclass(frozen=True)
class RefusedReduction:
    op: Op
    given: str

    def accepted(self) -> Tuple[str, ...]:
        return tuple(r for r in REDUCTIONS[self.op.name][0] if r not in ("max", "min"))

    def raised(self) -> str:
        return REDUCTIONS[self.op.name][1].format(given=self.given)

    def fix(self) -> Optional[str]:
        """What to write instead: scatter_reduce for a reduction scatter lacks, its own name for scatter's."""
        meant = _MEANT.get(self.given)
        if meant is None:
            return None
        if self.op.name == "scatter_reduce":
            return f"write reduce='{meant}'"
        if meant == "sum":
            return f"use `scatter_add{'_' if self.op.in_place else ''}(dim, index, src)`"
        return f"use `scatter_reduce{'_' if self.op.in_place else ''}(dim, index, src, '{meant}')`"


def refused_reduction(op: Op, method: bool, positional: Sequence[object], keywords: Mapping[str, object]):
    """The reduction a scatter or scatter_reduce call names that torch refuses (a string, given positionally in
    scatter_reduce's place for it or as `reduce=`); None when the call names none, or one it takes."""
    if op.name not in REDUCTIONS:
        return None
    given = keywords.get("reduce")
    place = 3 if method else 4  # (input,) dim, index, src, reduce
    if given is None and op.name == "scatter_reduce" and len(positional) > place:
        given = positional[place]
    if not isinstance(given, str) or given in REDUCTIONS[op.name][0]:
        return None
    return RefusedReduction(op, given)

