"""GL007's same-slice pairing needs logits and labels, not only two tensors cut alike.

`s[1:].gather(1, t[1:].unsqueeze(-1))` over a parse tree's score rows and its heads cuts both sides the
same way on purpose: nothing there predicts a next token. The pairing is the next-token mistake only when
the gathered tensor is per-position predictions and the index holds the tokens scored:

- predictions: a softmax/log_softmax of it, a name that says so (`logits`, `log_probs`, `logp`, `preds`),
  an `.logits` attribute, a model's output (a layer or a class of the file called on the ids, or a call
  of something named as a model: `model(...)`, `self.lm_head(...)`, `policy(...)`), or the input of a
  classification loss in the same function (`F.cross_entropy(out, ...)`);
- targets: ids or labels, in the sense the names already carry (`labels`, `input_ids`, `tokens`, `targets`,
  see names.category_domain), token ids the code compared with a special token, or a loss's target.

Both are followed back through slices, views and casts, and through names to their last assignment.
"""
from __future__ import annotations

import ast
import re
from typing import List

from ..contract import Site, Violation
from ..rules import gl007_shift_misalignment as shift_rule
from .last_assignment import last_assigned
from .modules import InstanceVal, is_layer
from .names import category_domain
from .tree_walk import called_name, env_key, own_nodes

_NORMALISED = {"log_softmax", "softmax", "log_sigmoid", "sigmoid"}
# methods that move, cut or cast a tensor without changing what its values are
_SAME_VALUES = {"view", "reshape", "contiguous", "float", "double", "half", "bfloat16", "to", "transpose", "permute",
                "squeeze", "unsqueeze", "flatten", "clone", "detach", "narrow", "expand", "expand_as", "long", "int",
                "cpu", "cuda", "type"}
_PREDICTION_NAME = re.compile(r"logit|logp|log_?prob|lprob|^probs?$|^probs?_|_probs?$|pred|lm_out")
_MODEL_NAME = re.compile(r"model|(?:^|_)lm(?:_|$)|lm_head|policy|actor|decoder|transformer|gpt|llm|generator")
_MAX_STEPS = 6  # names followed back, per side


def kept(interp, site: Site, bound, violations: List[Violation]) -> List[Violation]:
    """A site's violations (the rules' check(site), where GL007 is only ever the same-slice pairing) without
    that GL007 when the evidence above is missing."""
    if bound is None or not any(v.code == shift_rule.CODE for v in violations):
        return violations
    line = getattr(bound.get("input"), "lineno", 0)
    if _predictions(interp, bound.get("input"), line) and _targets(interp, site, bound.get(site.op.index_param), line):
        return violations
    return [v for v in violations if v.code != shift_rule.CODE]


def _predictions(interp, node, line: int) -> bool:
    for _ in range(_MAX_STEPS):
        node = _through_views(node, _NORMALISED)
        if node is True:
            return True  # a softmax or log_softmax of it
        if isinstance(node, ast.Attribute):
            return _PREDICTION_NAME.search(node.attr.lower()) is not None  # outputs.logits
        if isinstance(node, ast.Subscript):
            return _PREDICTION_NAME.search(str(node.slice.value).lower()) is not None  # outputs["logits"]
        if isinstance(node, ast.Call):
            return _model_call(interp, node)
        if not isinstance(node, ast.Name):
            return False
        if _PREDICTION_NAME.search(node.id.lower()) or node.id in _loss_operands(interp)[0]:
            return True
        node = last_assigned(interp, node.id, line)
    return False


def _targets(interp, site: Site, node, line: int) -> bool:
    domain = site.index.domain
    if domain is not None and (domain.category or domain.origin.startswith("token ids")):
        return True
    for _ in range(_MAX_STEPS):
        node = _through_views(node, ())
        if _keyed_by_text(node):
            return _ids_name(node.slice.value)  # batch["labels"]
        if isinstance(node, ast.Attribute):
            return _ids_name(node.attr)  # batch.input_ids
        if not isinstance(node, ast.Name):
            return False
        if _ids_name(node.id) or node.id in _loss_operands(interp)[1]:
            return True
        node = last_assigned(interp, node.id, line)
    return False


_LOSSES = {"cross_entropy", "nll_loss"}


def _loss_operands(interp):
    """(names passed as a classification loss's input, names passed as its target) in the scope being run."""
    scope = getattr(interp, "function", None) or getattr(getattr(interp, "module", None), "tree", None)
    if scope is None:
        return set(), set()
    found = getattr(scope, "_gather_lint_loss_operands", None)
    if found is None:
        inputs, targets = set(), set()
        for node in own_nodes(scope):
            if isinstance(node, ast.Call) and called_name(node) in _LOSSES and len(node.args) >= 2:
                for arg, into in ((node.args[0], inputs), (node.args[1], targets)):
                    base = _through_views(arg, ())
                    if isinstance(base, ast.Name):
                        into.add(base.id)
        found = (inputs, targets)
        scope._gather_lint_loss_operands = found
    return found


def _ids_name(name: str) -> bool:
    domain = category_domain(name)
    return domain is not None and domain.category


def _through_views(node, stop):
    """The tensor under slices, views and casts; True when a call named in `stop` is met on the way."""
    while True:
        if isinstance(node, ast.Subscript) and not _keyed_by_text(node):
            node = node.value
        elif isinstance(node, ast.Call) and called_name(node) in stop:
            return True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SAME_VALUES:
            node = node.func.value
        else:
            return node


def _keyed_by_text(node) -> bool:
    """`batch["labels"]`: an entry of a dict, not a slice of a tensor."""
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)


def _model_call(interp, call: ast.Call) -> bool:
    """A call of a model: a layer or class instance the analysis knows, or something named as one."""
    key = env_key(call.func)
    if key is not None and (is_layer(interp.env.get(key)) or isinstance(interp.env.get(key), InstanceVal)):
        return True
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    return _MODEL_NAME.search(name.lower()) is not None
