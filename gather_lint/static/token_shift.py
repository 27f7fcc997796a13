"""GL007 across a model call: per-token gathers checked against the ids the logits were computed from.

A causal LM's logits at input position t score token t+1. When a function calls a model on an ids tensor
and then gathers (directly or through a module helper) that same tensor from the logits, the positions
each side covers are known from the slices taken, whatever the shapes: the ids must cover the logits'
positions plus one. This pass tracks those windows (``[:, :-1]``, ``[:, 1:]``, ``[:, -k:]``,
``logits_to_keep=k``) by name, straight-line only, and reports a pairing that is definitely off:
- windows that differ, but not by the next-token shift (wrong for a causal and a masked LM alike);
- the same window, only when the model is known to be causal (its class says ``CausalLM``/``LMHeadModel``),
  since a masked LM scores each position legitimately.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from typing import Dict, Iterator, List, Optional, Tuple

from ..contract import WARNING, Violation
from .causal_models import causal_classes
from . import forward_shifts, helper_aliases, model_loss_calls, omitted_arguments, shifted_batches, text_scan
from . import class_lineage, documented_models, joined_sequences, library_causal_lms, right_shifted_decoders, token_losses, token_masks, tree_walk
from .tree_walk import called_name as _called_name, full_slice
from .token_windows import (FULL, LENGTH, ONE, ZERO, Lin, View, Window, add_lin, constant_of, cut_window,
                            linear_form, linear_of, sign_of, window_length)
from .text_scan import file_test

CODE = "GL007"
_CAUSAL_CLASS = re.compile(r"(?<!Non)Causal\w*L(?:M|anguageModel)|LMHeadModel")  # ...ForCausalLM, CausalBagLM
# methods and torch functions that keep every position where it was
_SAME_POSITIONS = {"log_softmax", "softmax", "float", "double", "half", "bfloat16", "to", "contiguous", "clone",
                   "detach", "log", "exp", "cpu", "cuda", "type", "long", "int", "clamp", "clamp_min", "div",
                   "mul", "sigmoid", "type_as", "masked_fill", "squeeze"}
_NOT_A_MODEL = {"generate", "cat", "stack", "pad", "tensor", "as_tensor", "where", "full_like", "zeros_like",
                "ones_like", "roll", "flip", "tokenizer", "decode", "encode", "len", "list", "tuple", "range"}
_OTHER_POSITIONS = ("decoder_input_ids", "decoder_inputs_embeds", "labels", "inputs_embeds")
_KEEP_KEYWORDS = ("logits_to_keep", "num_logits_to_keep")

# library helpers that gather, per position, their second argument's ids from their first argument's logits
_LIBRARY_HELPERS = {"selective_log_softmax": (0, 1, FULL, FULL, None), "logprobs_from_logits": (0, 1, FULL, FULL, None)}


@dataclass(frozen=True)
class Inputs:
    """A dict literal of a model's keyword arguments: `{"input_ids": ids, ...}`."""

    items: Tuple[Tuple[str, ast.expr], ...]


@dataclass(frozen=True)
class Column:
    """`ids.unsqueeze(d)`: a per-position index for a gather over dim d."""

    view: View
    dim: int


def _render(w: Window) -> str:
    """A window as the slice of the ids that takes it: `[1:]`, `[-k:]`, `[:-1]`."""
    def text(p: Lin, default: Lin) -> str:
        if p == default:
            return ""
        from_end = dict(p).get(LENGTH) == 1
        rest = add_lin(p, ((LENGTH, 1),), -1) if from_end else p
        terms = sorted(rest, key=lambda kv: kv[0] == "")  # names first, the constant last
        if from_end:
            terms = [(k, -v) for k, v in terms]
        body = " + ".join((f"{v}*{k}" if v not in (1, -1) else ("-" if v < 0 else "") + k) if k else str(v)
                          for k, v in terms).replace("+ -", "- ")
        if not from_end:
            return body
        return f"-{body}" if len(terms) == 1 and terms[0][1] > 0 else f"-({body})"
    return f"[{text(w[0], FULL[0])}:{text(w[1], FULL[1])}]"


class _Scope:
    """One function body (or the module body), statement by statement."""

    def __init__(self, helpers: Dict[str, tuple], classes: Dict[str, str], summarise: bool = False,
                 module_names: frozenset = frozenset(), built_causal=None):
        self.env: Dict[str, object] = {}
        self.built_causal = built_causal  # class name -> why it is causal by construction (see causal_models)
        self.helpers = helpers
        self.module_names = module_names  # functions, classes and imports: not models
        self.classes = classes  # variable -> class name it was built from or annotated with
        self.summarise = summarise
        self.mutated: frozenset = frozenset()  # dicts written to after they are built: not followed
        self.found: list = []  # (node, violation)
        self.pairs: list = []  # (input base, its window, index base, its window) of each gather (helper summaries)
        self.model_losses: Dict[str, tuple] = {}  # class -> its forward's loss helper call (model_loss_calls)
        self.batches: tuple = ({}, {})  # data pipelines returning pre-shifted pairs (shifted_batches)
        self.batch_keys: Dict[tuple, Dict[str, View]] = {}  # a dict batch's keyed windows, by its base
        self.loss_modules: Optional[frozenset] = None  # names bound to loss modules; None: no per-token loss here
        self.aliases: Dict[str, str] = {}  # self.<attr> -> the module function stored there (helper_aliases)
        self.omittable: Dict[str, int] = {}  # a summarised helper's parameters defaulting to None (omitted_arguments)
        self.assumed: set = set()  # those of them the summary assumes left out
        self.returned: list = []  # what a summarised helper's return statements give
        self.lengths: Dict[str, str] = {}  # length spellings of joined sequences -> one symbol (joined_sequences)
        self.joins: Dict[tuple, Tuple[str, str]] = {}  # a joined ids' base -> (first part, second part) (joined_sequences)
        self.documented: Dict[str, str] = {}  # model parameters the docstring calls causal (documented_models)
        self.methods: Dict[str, tuple] = {}  # the file's methods that gather like a helper (method_helpers)
        self.class_helpers: Dict[tuple, tuple] = {}  # (class, method) -> summary, called `Ops.pick(...)` (class_helpers)
        self.assumed_given: Dict[str, bool] = {}  # a function's optional parameters: the path followed, given or not
        self.shift_rights = frozenset  # () -> the file's shift-right functions (right_shifted_decoders)
        self.file_classes: frozenset = frozenset()  # classes the file defines (not library ones)
        self.handed: Dict[str, dict] = {}  # shared by a module's scopes: batches handed to its functions

    # ----- statements ---------------------------------------------------------------------
    def run(self, body) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(stmt, ast.Assign) and _pairwise(stmt):  # `a, b = x[:, :-1], x[:, 1:]`
                values = [self.value(item) for item in stmt.value.elts]
                self._cut_together(stmt, values)
                self._class_of(stmt.targets, stmt.value)
                for target, item in zip(stmt.targets[0].elts, values):
                    self.bind(target, item, stmt)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and self._join(stmt.targets[0].id, stmt.value, stmt):
                pass
            elif isinstance(stmt, ast.Assign):
                if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    length = joined_sequences.length_symbol(stmt.value)
                    if length is not None and length in self.lengths.values():  # start = prompt.size(1)
                        self.lengths[stmt.targets[0].id] = length
                    else:
                        self.lengths.pop(stmt.targets[0].id, None)
                value = self.value(stmt.value)
                self._class_of(stmt.targets, stmt.value)
                for t in stmt.targets:
                    self.bind(t, value, stmt)
                if self.batches[1] and len(stmt.targets) == 1:  # `ids, labels = next(iter(loader))`
                    self._bind_batch(shifted_batches.assigned_items(stmt.targets[0], stmt.value, *self.batches), stmt)
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                self.bind(stmt.target, self.value(stmt.value), stmt)
            elif isinstance(stmt, ast.Return) and stmt.value is not None:
                self.returned.append(self.value(stmt.value))
            elif isinstance(stmt, ast.Expr) and stmt.value is not None:
                self.value(stmt.value)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                self.run(stmt.body)
            elif isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try)):
                self._branches(stmt)
            else:
                self._forget(stmt)

    def _branches(self, stmt) -> None:
        """Each branch (or loop body) from what holds before it; after it, what any of them assigns is unknown."""
        taken = omitted_arguments.taken_when_omitted(stmt.test, self.omittable) \
            if isinstance(stmt, ast.If) and self.summarise else None
        if taken is not None:  # a helper's summary: the path of a call that leaves the parameter out
            self.assumed.add((taken[0], self.omittable[taken[0]]))
            self.run(stmt.body if taken[1] else stmt.orelse)
            return
        given = omitted_arguments.given_path(stmt, self.omittable) if isinstance(stmt, ast.If) else None
        if given is not None and self.assumed_given.setdefault(given, True):
            self.run(stmt.body)  # `if labels is not None:`: the path of a call that gives them, followed on
            return
        filled = omitted_arguments.filled_default(stmt, self.omittable) if isinstance(stmt, ast.If) else None
        if filled is not None and not self.assumed_given.setdefault(filled, False):
            # `if ids is None: ids = ...`: what the call that leaves it out computes
            saved = dict(self.env)
            self.run(stmt.body)
            default = self.env.get(filled)
            self.env = saved
            self._forget(stmt)
            if isinstance(default, View):
                self.env[filled] = default
            return
        if not isinstance(stmt, ast.If):
            self._forget(stmt)  # a loop body also starts from what its previous iteration left
        if isinstance(stmt, (ast.For, ast.AsyncFor)) and self.batches[1]:  # `for ids, labels in loader`
            self._bind_batch(shifted_batches.loop_items(stmt.target, stmt.iter, *self.batches), stmt)
        for body in (getattr(stmt, "body", []), getattr(stmt, "orelse", []), getattr(stmt, "finalbody", []),
                     *(h.body for h in getattr(stmt, "handlers", []))):
            saved = dict(self.env)
            self.run(body)
            self.env = saved
        self._forget(stmt)

    def bind(self, target, value, stmt) -> None:
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and shifted_batches.fills_constant(stmt):
            return  # `labels[:, :prompt_len] = -100`: some values change, every position stays where it was
        if isinstance(target, ast.Name):  # a value this pass does not follow is a fresh tensor of its own
            self.env[target.id] = value if value is not None else View((target.id, stmt.lineno, stmt.col_offset), FULL)
        elif isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name) \
                and isinstance(value, View) and value.logits and value.call is not None:
            # `states, _ = self.rnn(x)` / `logits, values = model(ids)`: the per-position output comes first
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    self.env[node.id] = View((node.id, stmt.lineno, node.col_offset), FULL)
            self.env[target.elts[0].id] = value
        else:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    self.env[node.id] = View((node.id, stmt.lineno, node.col_offset), FULL)

    def _batch_keys_of(self, name: str):
        """The keys of a dict batch bound to `name` (shifted_batches), or None."""
        held = self.env.get(name)
        return self.batch_keys.get(held.base) if isinstance(held, View) and name not in self.mutated else None

    def _bind_batch(self, items, stmt) -> None:
        """Names unpacked from a batch whose items are windows of one sequence share that sequence."""
        for name, held in items or ():
            if isinstance(held, dict):  # `batch["input_ids"]`, `batch["labels"]`: windows of one sequence
                base = (name, stmt.lineno, stmt.col_offset, "batch")
                self.env[name] = View(base, FULL)
                self.batch_keys[base] = {key: View((root, stmt.lineno, stmt.col_offset, "batch"), window)
                                         for key, (root, window) in held.items()}
            else:
                root, window = held
                self.env[name] = View((root, stmt.lineno, stmt.col_offset, "batch"), window)

    def _forget(self, stmt) -> None:
        line = getattr(stmt, "lineno", 0)
        for node in tree_walk.stored_names(stmt):
            self.env[node.id] = View((node.id, line, node.col_offset, "branch"), FULL)

    def _class_of(self, targets, value) -> None:
        for t, item in _assigned_pairs(ast.Assign(targets=targets, value=value)):
            built = _class_built(item)
            for name in ([t] if isinstance(t, ast.Name) else [n for n in ast.walk(t) if isinstance(n, ast.Name)]):
                if built and name is t:
                    self.classes[name.id] = built
                else:
                    self.classes.pop(name.id, None)

    # ----- expressions --------------------------------------------------------------------
    def value(self, node):
        if isinstance(node, ast.Name):
            found = self.env.get(node.id)
            return found if found is not None else View((node.id, 0), FULL)
        if isinstance(node, ast.Attribute):
            owner = self.value(node.value)
            if not isinstance(node.value, (ast.Call, ast.Subscript, ast.Name)):
                owner = None  # `(a * b).sum()`: evaluated for what it holds, never an output's member
            if isinstance(owner, View) and owner.logits:
                return owner if node.attr == "logits" else None
            return self._member(owner, node.value, node.attr)
        if isinstance(node, ast.Subscript):
            found = self.subscript(node)
            if found is None:
                self._visit(node)
            return found
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult)):
            left = self.value(node.left)
            if isinstance(node.op, ast.Mult) and isinstance(left, View):
                right = self.value(node.right)
                if isinstance(right, View):
                    if (left.window, right.window) not in _INPUT_FLAGS and \
                            self._token_masked(node, node.left, left, node.right, right):
                        return left if left.scores else right
                    return self._masked(node, left, right) or self._masked(node, right, left)
            scalar = isinstance(node.right, (ast.Name, ast.Constant, ast.Attribute))  # logits / temperature
            return left if isinstance(left, View) and left.logits and scalar else None
        if isinstance(node, ast.Compare):
            found = self._mask_of(node)
            if found is None:
                self._visit(node)
            return found
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            return Inputs(tuple((k.value, v) for k, v in zip(node.keys, node.values)))
        self._visit(node)
        return None

    def _visit(self, node) -> None:
        """Evaluate the parts of an expression this pass does not follow, for the gathers inside."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.value(child)
            elif isinstance(child, ast.keyword):
                self.value(child.value)

    def subscript(self, node: ast.Subscript):
        owner = self.value(node.value)
        if not isinstance(owner, View) or owner.flat:
            return None
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if isinstance(node.slice, ast.Constant) and (node.slice.value == 0 or node.slice.value == "logits"):
            return owner  # the first of a batch, or the logits of a model's output tuple: same positions
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) and not owner.logits:
            return self._member(owner, node.value, node.slice.value)
        column = bool(items) and isinstance(items[-1], ast.Constant) and items[-1].value is None and len(items) > 1
        if column:
            items = items[:-1]
            if len(items) == 1 and isinstance(items[0], ast.Constant) and items[0].value is Ellipsis:
                return Column(owner, -1) if owner.is_ids else None  # ids[..., None]
        seq = self._sequence_item(items, owner.logits)
        if seq is None and not owner.logits:  # a parameter or an untracked tensor may be logits or ids
            seq = self._sequence_item(items, True)
        if seq is None:
            return None
        window = cut_window(owner.window, *self._bounds(seq)) if isinstance(seq, ast.Slice) else owner.window
        if window is None:
            return None
        view = replace(owner, window=window)
        if owner.scores and owner.base in self.joins and window != owner.window:
            self._completion_cut(node, view, *self.joins[owner.base])
        return Column(view, -1) if column and owner.is_ids else (None if column else view)

    def _member(self, owner, owner_node, key: str):
        """`batch["input_ids"]` / `batch.input_ids`: the same tensor at each read while `batch` is not written."""
        if not isinstance(owner, View) or owner.window != FULL or not isinstance(owner_node, ast.Name) \
                or owner_node.id in self.mutated:
            return None
        if owner.base in self.batch_keys and key in self.batch_keys[owner.base]:
            return self.batch_keys[owner.base][key]
        return View(owner.base + (key,), FULL)

    @staticmethod
    def _sequence_item(items, logits: bool):
        """The item that indexes the sequence dim: ids are [B, L] (the last dim), logits [B, L, V]."""
        def ellipsis(i):
            return isinstance(i, ast.Constant) and i.value is Ellipsis
        if logits:
            if len(items) == 3 and full_slice(items[0]) and full_slice(items[2]) or \
                    len(items) == 2 and full_slice(items[0]) or \
                    len(items) == 3 and ellipsis(items[0]) and full_slice(items[2]):
                seq = items[1]
            else:
                return None
        elif len(items) == 2 and (full_slice(items[0]) or ellipsis(items[0])):
            seq = items[1]
        else:
            return None
        return seq if isinstance(seq, ast.Slice) and seq.step is None else None

    def _bounds(self, s: ast.Slice):
        lower = self._lengths(linear_of(s.lower)) if s.lower is not None else None
        upper = self._lengths(linear_of(s.upper)) if s.upper is not None else None
        if (s.lower is not None and lower is None) or (s.upper is not None and upper is None):
            return (_UNKNOWN, _UNKNOWN)
        return lower, upper

    def _lengths(self, lin: Optional[Lin]) -> Optional[Lin]:
        """A bound with the lengths of joined sequences named one way (joined_sequences): `prompt.size(1)` and
        `start` (assigned it) are both `len(prompt)`."""
        if lin is None or not self.lengths:
            return lin
        out: Dict[str, int] = {}
        for k, v in lin:
            k = self.lengths.get(k, k)
            out[k] = out.get(k, 0) + v
        return linear_form(out)

    def _join(self, target: str, value, stmt) -> bool:
        """`seq = torch.cat([a, b], dim=1)` of two ids: a and b become the windows of seq they fill."""
        parts = joined_sequences.joined(value)
        if parts is None:
            return False
        a, b = (self.value(ast.Name(id=p, ctx=ast.Load())) for p in parts)
        if not (isinstance(a, View) and isinstance(b, View) and a.is_ids and b.is_ids and a.window == FULL == b.window
                and a.base != b.base and not a.flat and not b.flat):
            return False
        base = (target, stmt.lineno, stmt.col_offset)
        cut = linear_form({f"len({parts[0]})": 1})
        self.env[target] = View(base, FULL)
        self.env[parts[0]] = View(base, (ZERO, cut))
        self.env[parts[1]] = View(base, (cut, FULL[1]))
        self.joins[base] = parts
        for name in parts:  # their lengths stay what they were: the symbol is fixed now
            self.lengths[f"{name}.size(1)"] = self.lengths[f"{name}.size(-1)"] = f"len({name})"
            self.lengths[f"{name}.shape[1]"] = self.lengths[f"{name}.shape[-1]"] = f"len({name})"
        return True

    def receive_join(self, sequence: str, length: str, first: str, second: str) -> None:
        """A joined sequence and its first part's length handed in by every caller (joined_sequences.handed)."""
        base = (sequence, 0)
        self.env[sequence] = View(base, FULL)
        self.joins[base] = (first, second)
        self.lengths[length] = f"len({first})"

    def _completion_cut(self, node: ast.Subscript, view: View, first: str, second: str) -> None:
        """Next-token scores of a joined sequence cut to start one token after its second part: that part's
        first token is left out (`logprobs[:, len(prompt):]` after the shift by one)."""
        start = linear_form({f"len({first})": 1})
        if view.window == (add_lin(start, ONE), FULL[1]):
            self.found.append((node, joined_sequences.first_token_dropped(ast.unparse(node), _text_of(view.base),
                                                                          first, second)))

    def call(self, node: ast.Call):
        found = self._call(node)
        if found is None and not _is_gather(node):
            self._visit(node)  # a gather may sit in its receiver or its arguments
        return found

    def _call(self, node: ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name in ("gather", "take_along_dim"):
            return self.gather(node)
        if name in ("ne", "not_equal", "eq", "equal", "lt", "gt", "le", "ge"):
            return self._mask_of(node)
        if self.loss_modules is not None:
            pair = token_losses.scored_pair(node, self.loss_modules)
            if pair is not None:
                return self.scored(node, *pair)
        if name in ("view", "reshape", "flatten", "rearrange") and token_losses.flattening(node):
            owner = self.value(token_losses.flattened(node))
            return replace(owner, flat=True) if isinstance(owner, View) else None
        if isinstance(func, ast.Attribute) and _is_module(func.value):
            if name in ("log_softmax", "softmax", "log") and node.args:
                return self._kept(self.value(node.args[0]))
            if name == "pad" and node.args:
                return self._padded(node)
            return None
        if isinstance(func, ast.Attribute) and name in _SAME_POSITIONS and not _is_module(func.value):
            owner = self.value(func.value)
            return owner if isinstance(owner, View) else None
        if isinstance(func, ast.Attribute) and name == "unsqueeze" and node.args:
            owner = self.value(func.value)
            d = _int(node.args[0])
            return Column(owner, d) if isinstance(owner, View) and owner.is_ids and d is not None else None
        helper = func.id if isinstance(func, ast.Name) else helper_aliases.called_function(node, self.aliases)
        if helper in self.helpers:
            return self.helper(node, self.helpers[helper])
        if helper is None and isinstance(func, ast.Attribute) and _is_self(func.value) and func.attr in self.methods:
            return self.helper(node, self.methods[func.attr])  # self.token_logps(logits, ids): a method that gathers
        through_class = (func.value.id, func.attr) if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id not in self.env else None
        if helper is None and through_class in self.class_helpers:  # Ops.token_logps(logits, ids): a static method
            return self.helper(node, self.class_helpers[through_class])
        if not self.summarise and self.model_losses and isinstance(func, (ast.Name, ast.Attribute)):
            loss = self.model_losses.get(self.classes.get(ast.unparse(func), ""))
            if loss is not None:
                self.model_loss(node, loss)
                return None
        if isinstance(func, ast.Name) and func.id in self.module_names and self.batch_keys:
            self._hand(node)
        shifted = right_shifted_decoders.shifted_argument(node, self.shift_rights)
        if shifted is not None:  # shift_tokens_right(labels): position t holds label t-1
            labels = self.value(shifted)
            if isinstance(labels, View) and labels.is_ids and not labels.flat:
                return replace(labels, window=(add_lin(labels.window[0], ONE, -1), add_lin(labels.window[1], ONE, -1)))
            return None
        return self.model(node, name) if not self.summarise else None

    def _hand(self, node: ast.Call) -> None:
        """`score(model, batch)` with a dict batch whose keys are windows of one sequence: the function's
        parameter receives those keys (checked when the function runs again with them)."""
        for position, arg in enumerate(node.args):
            keys = self._batch_keys_of(arg.id) if isinstance(arg, ast.Name) else None
            if keys:
                self.handed.setdefault(node.func.id, {})[position] = (self.env[arg.id].base, keys)

    def model_loss(self, node: ast.Call, loss: tuple) -> None:
        """`model(ids, labels=ids)` on a file class whose forward gathers its labels from its own logits
        (model_loss_calls): the helper's pairing, with the logits at the positions of the ids argument."""
        bound = model_loss_calls.bound_arguments(shifted_batches.spread(node, self._batch_keys_of), loss)
        if bound is None:
            return
        ids, labels = self.value(bound[0]), self.value(bound[1])
        if not (isinstance(ids, View) and ids.is_ids and isinstance(labels, View) and labels.is_ids):
            return
        cls = self.classes.get(ast.unparse(node.func))
        first_window, second_window, gather = loss[3][2:5]
        if gather is not None and ids.base == labels.base and (first_window, second_window) == _NEXT_TOKEN \
                and _one_ahead(ids.window, labels.window):  # a pre-shifted pair, shifted again by forward
            self.found.append((gather, forward_shifts.shifted_twice(cls, node, bound[0], bound[1], gather)))
            return
        logits = View(ids.base, _within(ids.window, first_window), True,
                      cls if _CAUSAL_CLASS.search(cls) else None, node, None, cls)
        labels = View(labels.base, _within(labels.window, second_window))
        fix = None if (first_window, second_window) == (FULL, FULL) else (
            f"`{loss[4]}` slices them itself ({_render(first_window)} of the logits, {_render(second_window)} of the "
            f"labels): pass labels that its slices pair as t with t+1")
        at = gather if fix is None and gather is not None else node
        self.check(logits, labels, at, loss[5], ast.unparse(bound[1]), fix,
                   f" (by `{loss[4]}(...)` in `{cls}.forward`, called at line {node.lineno})" if at is not node else "",
                   _pairing_verb(gather))

    @staticmethod
    def _kept(v):
        return v if isinstance(v, View) else None

    def _keywords(self, node: ast.Call) -> Optional[Dict[str, ast.expr]]:
        """The call's keyword arguments, `**inputs` of a dict literal never changed after it included;
        None when some are unknown."""
        out: Dict[str, ast.expr] = {}
        for k in node.keywords:
            if k.arg is not None:
                out[k.arg] = k.value
                continue
            spread = self.env.get(k.value.id) if isinstance(k.value, ast.Name) else None
            if not isinstance(spread, Inputs) or k.value.id in self.mutated:
                return None
            out.update(spread.items)
        return out

    def model(self, node: ast.Call, name: Optional[str]):
        """`model(ids)` (or `model(input_ids=ids)`) on an object: logits over the positions of ids."""
        func = node.func
        if name is None or name in _NOT_A_MODEL or name in self.helpers or name[:1].isupper():
            return None
        if isinstance(func, ast.Name) and func.id in self.module_names:
            return None
        if isinstance(func, ast.Attribute) and (name != "forward" and not _is_self(func.value)):
            return None  # obj.method(...) other than obj.forward / self.<submodule>
        if isinstance(func, ast.Attribute) and name == "forward":
            func = func.value
        keywords = self._keywords(node)
        if keywords is not None and "labels" in keywords:
            self._library_shift(node, func, keywords)
        if keywords is None or any(k in _OTHER_POSITIONS for k in keywords):
            return None
        first = node.args[0] if node.args else keywords.get("input_ids")
        if first is None or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        ids = self.value(first)
        if isinstance(ids, View) and ids.logits and not ids.flat and _is_self(func.value if isinstance(func, ast.Attribute) else None) \
                and not keywords:
            return ids  # `self.lm_head(self.decoder(...))`: a layer over per-position states keeps the positions
        if not isinstance(ids, View) or not ids.is_ids:
            return None
        window, keep = ids.window, None
        kept = next((v for k, v in keywords.items() if k in _KEEP_KEYWORDS), None)
        if kept is not None:
            k = linear_of(kept)
            if k is None or sign_of(k) != 1 or not k:
                return None
            window = (add_lin(window[1], k, -1), window[1])  # the last k positions
            keep = ast.unparse(kept)
        owner = ast.unparse(func)
        built = self.classes.get(owner)
        causal = built if built and _CAUSAL_CLASS.search(built) else self.documented.get(owner)
        return View(ids.base, window, True, causal, node, keep, built)

    def _library_shift(self, node: ast.Call, func, keywords: Dict[str, ast.expr]) -> None:
        """`model(ids, labels=...)` on a library causal LM that shifts its labels (library_causal_lms): labels
        already one token ahead of the ids are shifted twice."""
        built = self.classes.get(ast.unparse(func))
        first = library_causal_lms.ids_argument(node, keywords)
        if not built or built in self.file_classes or not library_causal_lms.shifts_labels(built) or first is None:
            return
        ids, labels = self.value(first), self.value(keywords["labels"])
        if isinstance(ids, View) and isinstance(labels, View) and ids.is_ids and labels.is_ids and not ids.flat \
                and ids.base == labels.base and _one_ahead(ids.window, labels.window):
            self.found.append((node, library_causal_lms.shifted_twice(
                built, ast.unparse(node.func) + "(...)", ast.unparse(first), ast.unparse(keywords["labels"]))))

    def gather(self, node: ast.Call) -> Optional[View]:
        func = node.func
        kw = {k.arg: k.value for k in node.keywords}
        if isinstance(func, ast.Attribute) and not _is_module(func.value):
            source, rest = func.value, list(node.args)
        elif node.args:
            source, rest = node.args[0], list(node.args[1:])
        else:
            return
        if func.attr == "take_along_dim" if isinstance(func, ast.Attribute) else func.id == "take_along_dim":
            index, dim = (rest + [None])[0] or kw.get("indices"), (rest + [None, None])[1] or kw.get("dim")
        else:
            dim, index = (rest + [None])[0] or kw.get("dim"), (rest + [None, None])[1] or kw.get("index")
        if index is None or dim is None:
            return
        d = _int(dim)
        logits, column = self.value(source), self.value(index)
        if d is None or not isinstance(logits, View) or not isinstance(column, Column) or not _same_dim(column.dim, d):
            return None
        self.check(logits, column.view, node, ast.unparse(source), ast.unparse(index))
        return View(column.view.base, column.view.window, scores=True) if logits.logits or self.summarise else None

    def _padded(self, node: ast.Call) -> Optional[View]:
        """`F.pad(ids, (a, b))`: the ids' positions with a before and b after (ids are [B, L]: the last dim is
        the sequence). Logits pad their vocab dim: not followed."""
        ids = self.value(node.args[0])
        widths = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "pad"), None)
        if not isinstance(ids, View) or not ids.is_ids or not isinstance(widths, (ast.Tuple, ast.List)) or len(widths.elts) < 2:
            return None
        before, after = _int(widths.elts[0]), _int(widths.elts[1])
        if before is None or after is None or before < 0 or after < 0:
            return None
        return replace(ids, window=(add_lin(ids.window[0], linear_form({"": before}), -1), add_lin(ids.window[1], linear_form({"": after}))))

    def scored(self, node: ast.Call, source: ast.expr, target: ast.expr, flattened: bool) -> None:
        """A per-token loss (token_losses): the logits at each position scored against the label there,
        both flattened the same way or given unflattened with the classes moved to dim 1."""
        logits, labels = self.value(source), self.value(target)
        if isinstance(logits, View) and isinstance(labels, View) and labels.is_ids \
                and logits.flat == labels.flat == flattened:
            self.check(logits, labels, node, ast.unparse(source), ast.unparse(target), scored="scored against")
        return None

    def helper(self, node: ast.Call, summary: tuple) -> Optional[View]:
        """A helper's gather, placed in the caller: its slices of the parameters apply to the arguments."""
        first, second, first_window, second_window, gather = summary[:5]
        args = list(node.args)
        if any(isinstance(a, ast.Starred) for a in args) or max(first, second) >= len(args):
            return
        if omitted_arguments.passed(node, summary[5] if len(summary) > 5 else frozenset()):
            return  # the summary is the path taken without that argument
        logits, ids = self.value(args[first]), self.value(args[second])
        returns = summary[6] if len(summary) > 6 else None
        scores = View(ids.base, _within(ids.window, returns), scores=True) \
            if returns is not None and isinstance(ids, View) and ids.is_ids and not ids.flat else None
        if self._decoder_shifted_twice(node, logits, ids, args[second], summary):
            return scores
        if self._shifted_twice(node, args[first], logits, args[second], ids, summary):
            return
        if isinstance(logits, View) and isinstance(ids, View) and ids.is_ids:
            logits = replace(logits, window=_within(logits.window, first_window))
            ids = View(ids.base, _within(ids.window, second_window))
            fix = None if (first_window, second_window) == (FULL, FULL) else (
                f"`{ast.unparse(node.func)}` slices them itself ({_render(first_window)} of the logits, "
                f"{_render(second_window)} of the ids): pass arguments that its slices pair as t with t+1")
            # a helper that takes positions as given is where the shift is missing; one that shifts, the caller
            at = gather if fix is None and gather is not None else node
            self.check(logits, ids, at, ast.unparse(args[first]), ast.unparse(args[second]), fix,
                       f" (`{ast.unparse(node.func)}(...)` at line {node.lineno})" if at is not node else "",
                       _pairing_verb(gather))
        return scores

    def _mask_of(self, node) -> Optional[View]:
        """`ids != pad` (token_masks): a flag per position of the ids."""
        ids = token_masks.compared(node)
        held = self.value(ids) if ids is not None else None
        return replace(held, mask=True) if isinstance(held, View) and held.is_ids and not held.flat else None

    def _token_masked(self, node, a_node, a: View, b_node, b: View) -> bool:
        """Scores of some tokens and flags of the same tokens paired position by position (multiplied, or cut
        in one statement) while they cover windows a fixed offset apart (token_masks)."""
        scores, mask, scores_node, mask_node = (a, b, a_node, b_node) if a.scores else (b, a, b_node, a_node)
        offset = token_masks.offset(scores, mask)
        if not offset:
            return False
        self.found.append((node, token_masks.misaligned(ast.unparse(scores_node), ast.unparse(mask_node),
                                                        _text_of(scores.base), offset)))
        return True

    def _cut_together(self, stmt: ast.Assign, values) -> None:
        """`scores, mask = logprobs[:, s:e], mask[:, s:e]`: cut in one statement, meant to line up."""
        for i, a in enumerate(values):
            for j in range(i + 1, len(values)):
                b = values[j]
                if isinstance(a, View) and isinstance(b, View) and (a.scores or b.scores):
                    if self._token_masked(stmt, stmt.value.elts[i], a, stmt.value.elts[j], b):
                        # reported here, once: what follows uses them as the pair they were meant to be
                        scores, at = (a, j) if a.scores else (b, i)
                        values[at] = replace(values[at], window=scores.window)
                        return

    def _masked(self, node: ast.BinOp, scores: View, mask: View) -> Optional[View]:
        """Per-token scores of `ids[:, 1:]` weighted by a mask of the ids' length cut as `[:, :-1]`: each
        token gets the weight of the one before it. (An attention mask describes the inputs, not the targets.)"""
        if not scores.scores or not mask.is_ids or scores.base == mask.base or \
                (scores.window, mask.window) != (_NEXT_TOKEN[1], _NEXT_TOKEN[0]) or _about_inputs(mask.base):
            return None
        base, name = _text_of(scores.base), _text_of(mask.base)
        self.found.append((node, Violation(
            CODE, WARNING,
            f"the per-token values of `{base}[:, 1:]` (the next tokens) are weighted by `{name}` cut as [:, :-1]: "
            f"each target token takes the mask of the token before it, so the masked span (prompt, padding) "
            f"is off by one position, silently; cut the mask like the targets, `{name}[:, 1:]`")))
        return scores

    def _decoder_shifted_twice(self, node: ast.Call, logits, ids, ids_node, summary: tuple) -> bool:
        """A shifting helper given logits of a decoder that read these very labels shifted right, and the labels
        as they are: the decoder already aligned them (right_shifted_decoders)."""
        if self.summarise or not _pairs_next_token(summary[2], summary[3]) \
                or not right_shifted_decoders.aligned_by_decoder(logits, ids):
            return False
        self.found.append((node, right_shifted_decoders.shifted_twice(ast.unparse(node.func), node, ast.unparse(ids_node))))
        return True

    def _shifted_twice(self, node: ast.Call, logits_node, logits, ids_node, ids, summary: tuple) -> bool:
        """A helper that pairs the logits at t with the label at t+1 itself (drops the last logit and the first
        label, or pads the labels and drops their first), given logits and labels the caller already shifted
        that way (the logits cut at [:-1], from any start, and the labels at [1:]): logits at t meet the label
        at t+2."""
        if self.summarise or not _pairs_next_token(summary[2], summary[3]) or not isinstance(logits, View) \
                or not isinstance(ids, View) or not ids.is_ids or logits.base == ids.base \
                or logits.window[1] != _NEXT_TOKEN[0][1] or ids.window != _NEXT_TOKEN[1] \
                or constant_of(logits.window[0]) is None and sign_of(logits.window[0]) != 1:
            return False
        helper = ast.unparse(node.func)
        self.found.append((node, Violation(
            CODE, WARNING,
            f"`{helper}` shifts its arguments itself (it pairs the logits at position t with the label at t+1), and "
            f"`{ast.unparse(logits_node)}` and `{ast.unparse(ids_node)}` arrive already shifted that way: the logits "
            f"at position t are scored against the label at t+2 and one more position is dropped, silently; "
            f"pass the unshifted logits and labels")))
        return True

    # ----- the verdict --------------------------------------------------------------------
    def check(self, logits: View, ids: View, node, logits_text: str, ids_text: str, fix: Optional[str] = None,
              called: str = "", scored: str = "gathered from") -> None:
        """gather pairs logits position start+j with id start+j (a shorter index reads only the first positions)."""
        if self.summarise:
            self.pairs.append((logits.base, logits.window, ids.base, ids.window, node))
            return
        if not logits.logits or logits.base != ids.base:
            return
        offset = constant_of(add_lin(ids.window[0], logits.window[0], -1))
        if offset is None or offset == 1:
            return  # the next-token pairing, or starts that cannot be compared
        longer = constant_of(add_lin(window_length(ids.window), window_length(logits.window), -1))
        raises = longer is not None and longer > 0
        base = logits.base[0]
        after = add_lin(logits.window[1], ONE)
        wanted = (add_lin(logits.window[0], ONE), FULL[1] if after == add_lin(FULL[1], ONE) else after)
        model = ast.unparse(logits.call.func) if logits.call is not None else "the model"
        at = f"`{model}(...)` at line {logits.call.lineno}" if logits.call is not None else "the model"
        if offset == 0 and not raises:
            causal = logits.causal
            built = self.built_causal(logits.model_class) if causal is None and logits.model_class and \
                self.built_causal is not None else None
            if causal is None and built is None:
                return  # a masked LM scores each token at its own position
            causal = causal or f"{logits.model_class}, causal by {built}"
            self.found.append((node, Violation(
                CODE, WARNING,
                f"`{ids_text}` is {scored} `{logits_text}` at its own positions{called}, but the logits come from the "
                f"causal LM {at} ({causal}) on `{base}`, whose logits at position t predict token t+1; "
                f"each token is scored by the prediction made at it, silently; "
                f"pair the logits without their last position ([:, :-1]) with `{base}[:, 1:]`")))
            return
        if offset == 0 and logits.keep is not None and ids.window[1] == add_lin(logits.window[1], ONE):
            self.found.append((logits.call, Violation(
                CODE, WARNING,
                f"`{logits.keep}` keeps logits for the last {logits.keep} positions of `{base}` and the slice after "
                f"it drops one, so they score {logits.keep} - 1 tokens while `{ids_text}` gathers {logits.keep} "
                f"(the shapes differ by one: the gather raises); "
                f"request `{logits.keep} + 1` logits so the kept ones also cover the position before the first id")))
            return
        outcome = "the gather raises (the ids are longer)" if raises else "each token is scored by the wrong prediction, silently"
        self.found.append((node, Violation(
            CODE, WARNING,
            f"`{ids_text}` covers positions {_render(ids.window)} of `{base}` but the logits `{logits_text}` from "
            f"{at} cover positions {_render(logits.window)}, whose predictions are for tokens "
            f"{_render(wanted)} (logits at t predict token t+1): {outcome}; "
            + (fix or f"gather `{base}{_bracket(wanted)}` instead"))))


def _within(outer: Window, inner: Window) -> Window:
    """The positions of `inner`, a window of a tensor that is itself the window `outer` of the ids."""
    size = add_lin(outer[1], outer[0], -1)
    def place(p: Lin) -> Lin:
        coef = dict(p).get(LENGTH, 0)
        out = add_lin(outer[0], tuple((k, v) for k, v in p if k != LENGTH))
        for _ in range(abs(coef)):
            out = add_lin(out, size, 1 if coef > 0 else -1)
        return out
    return (place(inner[0]), place(inner[1]))


def _one_ahead(ids: Window, labels: Window) -> bool:
    """labels are the ids' window moved one token on: `seq[:-1]`/`seq[1:]`, `data[i:i+n]`/`data[i+1:i+1+n]`."""
    return constant_of(add_lin(labels[0], ids[0], -1)) == 1 and constant_of(add_lin(window_length(labels), window_length(ids), -1)) == 0


def _pairs_next_token(first: Window, second: Window) -> bool:
    """A helper's windows pair the first's position t with the second's t+1: `[:-1]` with `[1:]`, or the whole
    logits with labels padded at the end and cut `[1:]`."""
    return constant_of(add_lin(second[0], first[0], -1)) == 1 and constant_of(add_lin(window_length(second), window_length(first), -1)) == 0


_UNKNOWN = (("?", 1), ("?", -1))
_NEXT_TOKEN = ((ZERO, add_lin(FULL[1], ONE, -1)), (ONE, FULL[1]))  # ([:-1] of the logits, [1:] of the ids)  # a bound that is not linear: sign_of says unknown
# next-token scores beside the flags of the inputs they were predicted at (`ids[:, :-1] != pad`): like an
# attention mask cut `[:, :-1]`, read as describing the inputs, not the targets (see _masked)
_INPUT_FLAGS = {(_NEXT_TOKEN[1], _NEXT_TOKEN[0]), (_NEXT_TOKEN[0], _NEXT_TOKEN[1])}


def _bracket(w: Window) -> str:
    text = _render(w)
    return "[:, " + text[1:]


def _int(node) -> Optional[int]:
    lin = linear_of(node)
    if lin is None or any(k for k, _ in lin):
        return None
    return dict(lin).get("", 0)


def _pairwise(stmt: ast.Assign) -> bool:
    """One tuple of names assigned from a tuple of as many expressions, none starred."""
    target, value = stmt.targets[0], stmt.value
    return len(stmt.targets) == 1 and isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and \
        len(target.elts) == len(value.elts) and all(isinstance(t, ast.Name) for t in target.elts) and \
        not any(isinstance(v, ast.Starred) for v in value.elts)


def _text_of(base: tuple) -> str:
    """The tensor a view's base names: `tokens`, `batch["loss_mask"]`."""
    first = 2 if base[0] == "param" else 1
    name = base[first - 1]
    keys = "".join(f'["{k}"]' for k in base[first:] if isinstance(k, str) and k != "branch")
    return f"{name}{keys}"


def _about_inputs(base: tuple) -> bool:
    """An attention mask marks real input positions; cut [:, :-1] it goes with the logits' inputs."""
    lowered = " ".join(part for part in base if isinstance(part, str)).lower()
    return "attention" in lowered or "attn" in lowered


def _same_dim(unsqueezed: int, gathered: int) -> bool:
    """`ids.unsqueeze(-1)` gathered over dim 2 (or `unsqueeze(2)` over -1): both name the new last dim,
    the vocab dim of logits one rank above the ids."""
    return unsqueezed == gathered or (unsqueezed == -1) != (gathered == -1) and max(unsqueezed, gathered) >= 1


def _pairing_verb(node) -> str:
    """How a summarised helper pairs the ids with the logits: a gather reads them, a loss scores them."""
    return "scored against" if isinstance(node, ast.Call) and not _is_gather(node) else "gathered from"


def _is_gather(node: ast.Call) -> bool:
    return _called_name(node) in ("gather", "take_along_dim")


def _is_module(node) -> bool:
    return isinstance(node, ast.Name) and node.id in ("torch", "F", "nn", "functional") or \
        isinstance(node, ast.Attribute) and ast.unparse(node) in ("torch.nn.functional", "nn.functional")


def _is_self(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _helpers(tree: ast.Module, gather_lines, loss_modules: Optional[frozenset] = None) -> Dict[str, tuple]:
    """Module functions that gather one parameter's logits with another parameter's ids, per position:
    name -> (logits parameter, ids parameter, the window of each it gathers). Only functions holding
    a gathering call (one of the sorted `gather_lines`) can pair anything: the others are not run."""
    found: Dict[str, tuple] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _has_line_in(gather_lines, node):
            summary = _summary(node, [a.arg for a in node.args.posonlyargs + node.args.args], loss_modules)
            if summary is not None:
                found[node.name] = summary
    return found


def method_helpers(tree: ast.Module, gather_lines, loss_modules: Optional[frozenset] = None) -> Dict[str, tuple]:
    """Methods of the file's classes that gather like a module helper, by name, called as `self.<name>(...)`
    (a name two classes summarise differently is left out)."""
    found: Dict[str, Optional[tuple]] = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or not _has_line_in(gather_lines, cls):
            continue
        for node in cls.body:
            params = [a.arg for a in node.args.posonlyargs + node.args.args] if isinstance(node, ast.FunctionDef) else []
            if not params or params[0] != "self" or node.name == "forward" or not _has_line_in(gather_lines, node) \
                    or node.decorator_list:
                continue
            summary = _summary(node, params[1:], loss_modules, skipped=1)
            if summary is not None:
                found[node.name] = summary if found.get(node.name, summary) == summary else None
    return {name: summary for name, summary in found.items() if summary is not None}


def class_helpers(tree: ast.Module, gather_lines, loss_modules: Optional[frozenset] = None) -> Dict[tuple, tuple]:
    """The file's @staticmethods and @classmethods that gather like a module helper, called through their
    class (`Ops.token_logps(logits, ids)`): (class, name) -> summary (a @classmethod's `cls` is not passed)."""
    found: Dict[tuple, tuple] = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or not _has_line_in(gather_lines, cls):
            continue
        for node in cls.body:
            if not isinstance(node, ast.FunctionDef) or not _has_line_in(gather_lines, node):
                continue
            skipped = 1 if class_lineage.is_classmethod(node) else 0 if not class_lineage.binds_first(node) else None
            params = [a.arg for a in node.args.posonlyargs + node.args.args]
            if skipped is None or len(params) < skipped:
                continue
            summary = _summary(node, params[skipped:], loss_modules, skipped=skipped)
            if summary is not None:
                found[(cls.name, node.name)] = summary
    return found


def _summary(node: ast.FunctionDef, params, loss_modules, skipped: int = 0) -> Optional[tuple]:
    """What a function gathers of its parameters `params` (see _helpers), or None; `skipped` leading
    parameters (a method's self) are not passed at its calls."""
    scope = _Scope({}, {}, summarise=True)
    scope.loss_modules = loss_modules
    scope.omittable = {p: (i - skipped if i >= 0 else i)
                       for p, i in omitted_arguments.defaulting_to_none(node).items()}
    for p in params:
        scope.env[p] = View(("param", p), FULL)
    scope.run(node.body)
    pairs = {(a[1], wa, b[1], wb): at for a, wa, b, wb, at in scope.pairs if a[0] == "param" == b[0] and a != b}
    if len(pairs) != 1:
        return None
    (a, wa, b, wb), at = pairs.popitem()
    # the helper returns the per-token values it gathered: their window of the ids argument
    scores = {r.window for r in scope.returned if isinstance(r, View) and r.scores and r.base == ("param", b)}
    returns = scores.pop() if len(scores) == 1 and len(scope.returned) == 1 else None
    return (params.index(a), params.index(b), wa, wb, at, frozenset(scope.assumed), returns)


_GATHERING = frozenset({"gather", "take_along_dim"}) | frozenset(_LIBRARY_HELPERS)


@file_test
def spelled_in(text: str) -> bool:
    """Whether a gathering call can be in a file's text: the module pass needs one, and this test
    costs far less than the walk of the tree that would find out."""
    return text_scan.has_call(text, _GATHERING) or token_losses.spelled_in(text) or library_causal_lms.spelled_in(text)


def _module_names(nodes) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield (alias.asname or alias.name).split(".")[0]


def _mutated(nodes) -> Iterator[str]:
    """Names whose object is written through: `d[k] = v`, `d.x = v`, `d.update(...)`, `d |= ...`."""
    for node in nodes:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            targets = []
        for t in targets:
            written_through = isinstance(t, (ast.Subscript, ast.Attribute)) or isinstance(node, ast.AugAssign)
            while isinstance(t, (ast.Subscript, ast.Attribute)):
                t = t.value
            if isinstance(t, ast.Name) and written_through:
                yield t.id
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.attr in ("update", "pop", "setdefault", "clear", "popitem", "__setitem__"):
            yield node.func.value.id


_SAME_MODEL = {"eval", "train", "to", "cuda", "cpu", "half", "float", "bfloat16", "double", "requires_grad_"}


def _class_built(value) -> Optional[str]:
    """`Cls(...)` or `Cls.from_pretrained(...)`: the class's name."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    while isinstance(func, ast.Attribute) and func.attr in _SAME_MODEL and isinstance(func.value, ast.Call):
        func = func.value.func  # Model(...).eval(), Model(...).to(device): the same model
    if isinstance(func, ast.Attribute) and func.attr == "from_pretrained":
        func = func.value
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return name if name and name[:1].isupper() else None


def _built_classes(stmts) -> Dict[str, str]:
    out = {}
    for stmt in stmts:
        if not isinstance(stmt, ast.Assign):
            continue
        for t, value in _assigned_pairs(stmt):
            if isinstance(t, (ast.Name, ast.Attribute)) and _class_built(value):
                out[ast.unparse(t)] = _class_built(value)
    return out


def _assigned_pairs(stmt: ast.Assign):
    """(target, value) of `a = v` and of each item of `a, b = v, w` (`policy, ref = Lm(...), Lm(...)`)."""
    for t in stmt.targets:
        if isinstance(t, ast.Tuple) and isinstance(stmt.value, ast.Tuple) and len(t.elts) == len(stmt.value.elts):
            yield from zip(t.elts, stmt.value.elts)
        else:
            yield t, stmt.value


def _passed_classes(tree: ast.Module, built: Dict[str, str], gathering, index: "_ModuleIndex",
                    reads=None) -> Dict[str, Dict[str, str]]:
    """Module functions that gather (or that `reads(fn)` selects), called with a model built in the caller:
    function -> {parameter: class}."""
    lines = index.lines_calling(gathering)  # a text scan: a function holding none of them calls none

    def selected(n) -> bool:
        return (_has_line_in(lines, n) and _calls_any(n, gathering)) or (reads is not None and reads(n))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and selected(n)}
    # static methods of the file's classes, called as `Ops.score(model, ids)` (only so: a plain `score(...)` is
    # another function); one named as a module function is left out, as the two would share its facts
    statics = {(c.name, n.name): n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body
               if isinstance(n, ast.FunctionDef) and any(tree_walk.last_name(d) == "staticmethod" for d in n.decorator_list)
               and n.name not in functions and selected(n)}
    if not functions and not statics:
        return {}  # the usual case (gathers sit in methods): no walk of every scope
    calls = index.lines_calling(set(functions) | {name for _, name in statics})  # only statements holding these are walked
    if not calls:
        return {}
    seen: Dict[Tuple[str, str], set] = {}
    # the module as one scope (every assignment of the file) and each function holding such a call
    module_nodes = [n for top in tree.body if _has_line_in(calls, top) for n in tree_walk.all_nodes(top)]
    scopes = [tree] + [n for n in index.defs if _has_line_in(calls, n)]
    for scope in scopes:
        nodes = module_nodes if scope is tree else tree_walk.all_nodes(scope)
        local = {**built, **_built_classes(index.assigns if scope is tree else
                                           (n for n in nodes if isinstance(n, ast.Assign)))}
        for call in nodes:
            fn = _module_function_called(call, functions, statics)
            if fn is None:
                continue
            for param, arg in zip([a.arg for a in fn.args.args], call.args):
                if isinstance(arg, ast.Name) and arg.id in local:
                    seen.setdefault((fn.name, param), set()).add(local[arg.id])
                elif _class_built(arg):  # train_step(Decoder(13, 6), data)
                    seen.setdefault((fn.name, param), set()).add(_class_built(arg))
    out: Dict[str, Dict[str, str]] = {}
    for (fn, param), classes in seen.items():
        if len(classes) == 1:
            out.setdefault(fn, {})[param] = classes.pop()
    return out


def _module_function_called(call, functions, statics) -> Optional[ast.FunctionDef]:
    """The module function (`score(...)`) or static method (`Ops.score(...)`) a call runs, or None."""
    if not isinstance(call, ast.Call):
        return None
    if isinstance(call.func, ast.Name):
        return functions.get(call.func.id)
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
        return statics.get((call.func.value.id, call.func.attr))
    return None


def _handed_models(tree: ast.Module, built: Dict[str, str], index: "_ModuleIndex", model_losses) -> Dict[str, Dict[str, str]]:
    """Module functions called with a model of a class in `model_losses`: function -> {parameter: class}.
    Looked for only where such a class is built in the file (a script), never in a library's model file."""
    if not model_losses or not index.lines_calling(frozenset(model_losses)):
        return {}
    found = _passed_classes(tree, built, frozenset(), index, lambda fn: True)
    return {fn: {p: c for p, c in params.items() if c in model_losses} for fn, params in found.items()
            if any(c in model_losses for c in params.values())}


def _built_or_annotated(class_name: str, index: "_ModuleIndex") -> bool:
    """Whether the text calls the class (not in its `class` statement) or names it after a `:` or `->` (a
    parameter or return annotation)."""
    text = index.text
    for at in text_scan.word_positions(text, class_name):  # str.find from hit to hit: a regex tries every `:`
        end = at + len(class_name)
        before = text[text.rfind("\n", 0, at) + 1:at].rstrip(" \t\"'")
        while before.endswith("."):  # `models.` or `nn.` before the name
            before = before[:-1]
            while before and (before[-1].isalnum() or before[-1] == "_"):
                before = before[:-1]
        if text[end:end + 40].lstrip(" \t").startswith("(") and before.strip() != "class":
            return True
        if before.rstrip().endswith((":", "->")):
            return True
    return False


def _annotated_classes(fn) -> Dict[str, str]:
    out = {}
    for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs:
        ann = a.annotation
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            out[a.arg] = ann.value
        elif isinstance(ann, (ast.Name, ast.Attribute)):
            out[a.arg] = ast.unparse(ann)
    return out


def _calls_any(node: ast.AST, names) -> bool:
    return any(_called_name(n) in names for n in tree_walk.all_nodes(node))


class _ModuleIndex:
    """What the module pass reads of a file that names a gathering op. Calls are found in the text and
    the rest in the statements (defs, imports and assignments are always statements): a walk of every
    expression node, most of a tree, is left to the rare question that needs one."""

    def __init__(self, tree: ast.Module, text: str):
        self.tree, self.text = tree, text
        self.assigns = []
        self.defs = []  # function definitions, in ast.walk's order
        self.loops = []  # for statements
        self.names = set()  # functions, classes and imports of the module: not models
        self.statements = list(tree_walk.statements(tree))  # kept: the module scope's writes are read from them
        for node in self.statements:
            kind = type(node)
            if kind is ast.Assign:
                self.assigns.append(node)
            elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                self.defs.append(node)
                self.names.add(node.name)
            elif kind is ast.ClassDef:
                self.names.add(node.name)
            elif kind is ast.For or kind is ast.AsyncFor:
                self.loops.append(node)
            elif kind is ast.Import or kind is ast.ImportFrom:
                self.names.update(_module_names([node]))
        self._nodes = None
        self._calling: Dict[str, List[int]] = {}

    def lines_calling(self, names) -> list:
        """Sorted lines where one of `names` is called: they tell which functions to run. Each name's lines
        are found once: the pass asks again for sets that share most names."""
        lines = set()
        for name in names:
            if name not in self._calling:
                self._calling[name] = text_scan.call_lines(self.text, (name,))
            lines.update(self._calling[name])
        return sorted(lines)

    @property
    def nodes(self) -> list:
        if self._nodes is None:
            self._nodes = tree_walk.all_nodes(self.tree)
        return self._nodes


class _Mutated:
    """Names whose object a module or a function writes through (see _mutated), found on the first
    question: most scopes never ask. `nodes()` gives the scope's nodes; `called()`, when given, the names
    a mutating method is called on, so that `nodes()` need only hold the statements."""

    def __init__(self, nodes, called=None):
        self.nodes, self.called, self.found = nodes, called, None

    def __contains__(self, name: str) -> bool:
        if self.found is None:
            self.found = frozenset(_mutated(self.nodes())) | frozenset(self.called() if self.called else ())
        return name in self.found


# `d.update(...)` in the text (comments too: one more name taken as written, never one less); the method
# is searched first and the name read back from it, since a pattern starting at the name would be tried
# at every word of the file
_MUTATING_METHOD = re.compile(r"\.\s*(?:update|pop|setdefault|clear|popitem|__setitem__)\s*\(")
_NAME_BEFORE = re.compile(r"\b([A-Za-z_]\w*)\s*$")


def _mutating_calls(text: str) -> List[Tuple[int, str]]:
    """(line, name `d`) of each `d.update(...)`-like call in the text."""
    found, line, last = [], 1, 0
    for match in _MUTATING_METHOD.finditer(text):
        name = _NAME_BEFORE.search(text, max(0, match.start() - 80), match.start())
        if name is not None:
            line += text.count("\n", last, match.start())
            last = match.start()
            found.append((line, name.group(1)))
    return found


_CLASS_LINE = re.compile(r"^[ \t]*class[ \t]+(\w+)", re.MULTILINE)


def check_module(tree: ast.Module, text: str) -> Iterator[Tuple[ast.AST, Violation]]:
    """Every misaligned per-token gather of the module (`text` is its source): (node to report, violation)."""
    index = _ModuleIndex(tree, text)
    # a per-token loss pairs positions like a gather (token_losses); its names are looked for only where spelled
    loss_modules = token_losses.module_bindings(text, index.assigns) if token_losses.spelled_in(text) else None
    scoring = _GATHERING | (token_losses.call_names(loss_modules) if loss_modules is not None else frozenset())
    # pairs are found only at a gather (or a helper that gathers): code without one is skipped whole,
    # which keeps this pass from walking every function of every file that merely names an op
    gather_lines = index.lines_calling(scoring)
    # functions naming a library causal LM and passing labels= call it (library_causal_lms)
    library = library_causal_lms.lines(text) if library_causal_lms.spelled_in(text) else None
    if not gather_lines and not library:
        return
    names = frozenset(index.names)
    built = _built_classes(tree.body)  # module variables and self.<attr> anywhere: the class they hold
    built.update({k: v for k, v in _built_classes(index.assigns).items() if k.startswith("self.")})
    helpers = {**{k: v for k, v in _LIBRARY_HELPERS.items() if k in names}, **_helpers(tree, gather_lines, loss_modules)}
    aliases = helper_aliases.aliases(index.assigns, helpers) if helpers else {}
    methods = method_helpers(tree, gather_lines, loss_modules)
    through_class = class_helpers(tree, gather_lines, loss_modules) if "@staticmethod" in text or "@classmethod" in text else {}
    gathering = scoring | set(helpers) | set(aliases) | set(methods) | {name for _, name in through_class}
    passed = _passed_classes(tree, built, gathering, index)
    built_causal = _BuiltCausal(tree)
    gathering_lines = index.lines_calling(gathering)
    # a model of the class is built (`Lm(...)`) or annotated (`model: Lm`) here: only then is its forward called
    model_losses = model_loss_calls.summaries(tree, helpers, lambda fn: _has_line_in(gathering_lines, fn), loss_modules,
                                              aliases, lambda name: _built_or_annotated(name, index))
    # batches a data pipeline cuts (or copies) from one sequence: for a model's own loss, or a loader's batches
    produced = shifted_batches.producers(tree) if model_losses or library or shifted_batches.loads(text) else {}
    batches = (shifted_batches.sources(index.assigns, produced) if produced else {}, produced)
    module_scope = _Scope(helpers, dict(built), module_names=names, built_causal=built_causal)
    module_scope.model_losses = model_losses
    module_scope.batches = batches
    module_scope.loss_modules = loss_modules
    module_scope.aliases = aliases
    module_scope.methods = methods
    module_scope.class_helpers = through_class
    shift_rights = _Lazy(lambda: frozenset(right_shifted_decoders.shifting_functions(tree)))
    module_scope.shift_rights = shift_rights
    # from the text: the blocks parsed may leave out a class that names no op
    module_scope.file_classes = frozenset(_CLASS_LINE.findall(text)) if library else frozenset()
    # writes through a name are statements; the mutating calls are found in the text, not by a walk of every node
    mutating_calls = _Lazy(lambda: _mutating_calls(text))
    module_scope.mutated = _Mutated(lambda: index.statements, lambda: [name for _, name in mutating_calls()])
    module_scope.run(tree.body)
    yield from module_scope.found
    # functions that build a model whose forward gathers its labels call it there too
    loss_names = scoring - _GATHERING
    # a submodule of such a class held by another model (`self.decoder = Decoder(...)`) is called by that name
    held = {owner[len("self."):] for owner, cls in built.items() if owner.startswith("self.") and cls in model_losses}
    lines = index.lines_calling((gathering - loss_names) | set(model_losses) | set(produced) | held)
    loss_lines = index.lines_calling(loss_names) if loss_names else []
    if produced:  # a training step handed the model, unpacking a pre-shifted batch from a helper or a loader
        lines = sorted(lines + [n.lineno for n in index.loops if shifted_batches.iterates(n, batches[0])])
    if produced:
        passed = {**_passed_classes(tree, built, frozenset(produced), index,
                                    lambda fn: batches[0] and any(shifted_batches.iterates(n, batches[0]) for n in ast.walk(fn))),
                  **passed}
    # a model class of the file whose forward scores its labels, built and handed to a module function
    # (`evaluate(model, batches)`), is called there: the function runs with its parameter's class known
    handed_models = _handed_models(tree, built, index, model_losses)
    for fn_name, params in handed_models.items():
        passed[fn_name] = {**params, **passed.get(fn_name, {})}
    handed = module_scope.handed  # batches of a producer handed to a module function: {function: {param: keys}}
    # joined sequences handed to a function: read only once a function runs (most files run none)
    joins = _Lazy(lambda: joined_sequences.handed(tree, text) if "cat(" in text or "concat(" in text else {})

    def run(fn, received=None):
        classes = {**built, **passed.get(fn.name, {}), **_annotated_classes(fn)}
        scope = _Scope(helpers, classes, module_names=names, built_causal=built_causal)
        scope.model_losses = model_losses
        scope.batches = batches
        scope.loss_modules = loss_modules
        scope.aliases = aliases
        scope.methods = methods
        scope.class_helpers = through_class
        scope.shift_rights = shift_rights
        scope.file_classes = module_scope.file_classes
        scope.omittable = omitted_arguments.defaulting_to_none(fn)
        scope.mutated = _Mutated(lambda: tree_walk.statements(fn), lambda: [
            name for line, name in mutating_calls() if fn.lineno <= line <= (fn.end_lineno or fn.lineno)])
        scope.handed = handed
        scope.documented = documented_models.causal_parameters(fn)
        for param, (base, keys) in (received or {}).items():  # the caller's batch, under the parameter's name
            scope.env[param] = View(base, FULL)
            scope.batch_keys[base] = keys
        if fn.name in joins():
            scope.receive_join(*joins()[fn.name])
        scope.run(fn.body)
        return scope.found

    ran = set()
    for fn in index.defs:
        if _has_line_in(lines, fn) or fn.name in handed_models \
                or library and _has_line_in(library[0], fn) and _has_line_in(library[1], fn) \
                or _has_line_in(loss_lines, fn) and token_losses.scores_what_it_feeds(fn, loss_modules):
            ran.add(fn.name)
            yield from run(fn)
    # a function handed a batch by a caller run above: once more, with the batch's keys known
    for fn in index.defs:
        if fn.name in handed and fn.name in ran and isinstance(fn, ast.FunctionDef):
            params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
            received = {params[i]: keys for i, keys in handed.pop(fn.name).items() if i < len(params)}
            yield from run(fn, received)


def _has_line_in(lines, fn) -> bool:
    """Whether a gathering call starts inside fn's lines (sorted `lines`)."""
    return text_scan.any_between(lines, fn.lineno, fn.end_lineno or fn.lineno)


class _Lazy:
    """A value computed on the first call (most modules never ask)."""

    def __init__(self, make):
        self.make, self.value = make, None

    def __call__(self):
        if self.value is None:
            self.value = self.make()
        return self.value


class _BuiltCausal:
    """The file's causal-by-construction classes, found on the first question (most modules never ask)."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.found: Optional[Dict[str, str]] = None

    def __call__(self, class_name: str) -> Optional[str]:
        if self.found is None:
            self.found = causal_classes(self.tree)
        return self.found.get(class_name)
