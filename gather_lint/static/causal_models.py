"""Model classes of a file that are causal by construction, for GL007's same-position check.

Logits gathered at the very positions of the ids the model read are only wrong for a causal model (its
output at t has read token t and predicts t+1); a masked LM or an autoencoder scores each position
legitimately. Besides the class names that say so (`...ForCausalLM`), a class written in the file shows
it by what it builds: a unidirectional recurrent layer (`nn.GRU`/`nn.LSTM`/`nn.RNN` without
`bidirectional=True`), a causal attention mask (`is_causal=True`, `generate_square_subsequent_mask`,
`torch.tril(torch.ones(..))`), or a layer class of the file that does. A class that shifts or pads
token positions itself (`[:, :-1]`, `torch.cat`, `F.pad`, `roll`) may realign its logits with its input:
it is never counted. Nor is a recurrent layer the evidence when the class builds two of them (an
encoder and a decoder) or spreads a state over time (`h.repeat(1, L, 1)`, `expand`, a reparameterised
sample): a sequence autoencoder decoding from a latent scores each position legitimately.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, Optional

from .tree_walk import last_name

_RECURRENT = {"GRU", "LSTM", "RNN"}
_MASKS = {"generate_square_subsequent_mask"}
_TRIANGLES = {"tril", "triu"}
_FILLED = {"ones", "full", "ones_like", "full_like"}
_LATENT = {"repeat", "expand", "repeat_interleave", "reparameterize", "reparameterise", "rsample"}  # a state spread over time
_REALIGNING = {"cat", "concat", "concatenate", "pad", "roll", "shift_right", "_shift_right", "shift_tokens_right"}


def causal_classes(tree: ast.Module) -> Dict[str, str]:
    """Class name -> what shows it is causal, for the classes defined at the top of `tree`."""
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    found: Dict[str, str] = {}
    uses: Dict[str, set] = {}
    for name, cls in classes.items():
        evidence, realigns, built = _scan(cls, classes)
        if realigns:
            continue
        uses[name] = built
        if evidence:
            found[name] = evidence
    changed = True
    while changed:  # a model built from a causal block of the file is causal too
        changed = False
        for name, built in uses.items():
            inner = next((b for b in sorted(built) if b in found and b != name), None)
            if name not in found and inner is not None:
                found[name] = f"its `{inner}` layers ({found[inner]})"
                changed = True
    return found


def _scan(cls: ast.ClassDef, classes) -> tuple:
    evidence: Optional[str] = None
    realigns = False
    built = set()
    recurrent = 0
    latent = False
    for node in ast.walk(cls):
        if isinstance(node, ast.Slice) and (_is_one(node.lower) or _is_one(node.upper, negative=True)):
            realigns = True
        if not isinstance(node, ast.Call):
            continue
        name = last_name(node.func)
        latent = latent or name in _LATENT
        if name in _REALIGNING:
            realigns = True
        elif name in classes:
            built.add(name)
        elif name in _RECURRENT and not _bidirectional(node):
            recurrent += 1
            evidence = evidence or f"a unidirectional nn.{name}"
        elif name in _RECURRENT:
            recurrent += 1
        elif name in _MASKS or any(k.arg == "is_causal" and _true(k.value) for k in node.keywords):
            evidence = evidence or "a causal attention mask"
        elif name in _TRIANGLES and node.args and isinstance(node.args[0], ast.Call) and last_name(node.args[0].func) in _FILLED:
            evidence = evidence or f"a causal mask from `{name}`"
    if (recurrent > 1 or latent) and evidence is not None and evidence.startswith("a unidirectional"):
        evidence = None  # an encoder and a decoder: what the decoder reads at t is not known
    if evidence is None and not built and _NGRAM_NAME.search(cls.name) and _reads_each_position_alone(cls):
        evidence = "an n-gram language model's table, read at each position alone"
    return evidence, realigns, built


# layers that act on each position alone; a model built of nothing else mixes no positions
_POSITION_WISE = {"Embedding", "Linear", "LayerNorm", "Dropout", "ReLU", "GELU", "Tanh", "Sigmoid", "SiLU",
                  "Identity", "Parameter", "randn", "zeros", "ones", "relu", "gelu", "tanh", "sigmoid", "silu",
                  "dropout", "layer_norm", "log_softmax", "softmax"}
_TABLES = {"Embedding", "Parameter"}


# a class named as a language model of n-grams: built of position-wise layers alone it is one (the same layers
# named otherwise may be a token autoencoder, which scores each position legitimately)
_NGRAM_NAME = re.compile(r"(?i:(?:bi|tri|n_?|\d)gram|language_?model)|(?:^|[a-z0-9_])LM$")


def _reads_each_position_alone(cls: ast.ClassDef) -> bool:
    """`__init__` builds a table (an nn.Embedding, a Parameter) and position-wise layers only, and `forward`
    calls nothing else (`self.table[input_ids]`, `self.head(self.embed(ids))`): each output position has read
    its own token only, as a causal model's has read the ones before it."""
    methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
    init, forward = methods.get("__init__"), methods.get("forward")
    if init is None or forward is None or set(methods) - {"__init__", "forward"}:
        return False
    layers = {last_name(n.func) for n in ast.walk(init) if isinstance(n, ast.Call)} - {"super", "__init__"}
    if not layers & _TABLES or not layers <= _POSITION_WISE:
        return False
    own = {t.attr for n in ast.walk(init) if isinstance(n, (ast.Assign, ast.AnnAssign))
           for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
           if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    for node in ast.walk(forward):
        if isinstance(node, ast.Call):
            called = node.func
            if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name) and called.value.id == "self" \
                    and called.attr in own:
                continue  # one of its position-wise layers
            if last_name(called) not in _POSITION_WISE or not _along_the_last_dim(node):
                return False
    return True


def _along_the_last_dim(call: ast.Call) -> bool:
    """A softmax (or any call given a dim) along the last dim only: across the classes, not the positions."""
    dims = [k.value for k in call.keywords if k.arg == "dim"]
    if last_name(call.func) in ("softmax", "log_softmax"):
        dims += call.args[1:2] if isinstance(call.func, ast.Attribute) and last_name(call.func.value) in ("F", "functional", "torch") \
            else call.args[:1]
    return all(isinstance(d, ast.UnaryOp) and isinstance(d.op, ast.USub) and _is_one(d.operand) for d in dims)


def _bidirectional(call: ast.Call) -> bool:
    """bidirectional= anything but a literal False (the 8th positional argument counts too)."""
    if len(call.args) >= 8:
        return True
    return any(k.arg == "bidirectional" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
               for k in call.keywords) or any(k.arg is None for k in call.keywords)


def _true(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _is_one(node, negative: bool = False) -> bool:
    if negative:
        return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _is_one(node.operand)
    return isinstance(node, ast.Constant) and node.value == 1 and not isinstance(node.value, bool)
