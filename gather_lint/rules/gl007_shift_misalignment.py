"""GL007 shift misalignment: logits and labels sliced the same way around a per-token gather.

A causal LM's logits at position t predict token t+1, so the per-token log-prob idiom pairs
``logits[:, :-1]`` (drop the last position) with ``labels[:, 1:]`` (drop the first). Slicing both
the same way (``logits[:, :-1]`` with ``labels[:, :-1]``, or ``[:, 1:]`` with ``[:, 1:]``) scores
each token with the prediction made *at* it instead of *for* it: no error, a plausible-looking
loss, and a model that learns to copy its input. Two tensors cut alike are not evidence enough (a parse
tree's score rows and its heads are cut the same way on purpose): the gathered side must be predictions (a
softmax/log_softmax of it, a `logits`/`log_probs`-like name, a model's output) and the index the tokens scored
(ids or labels by name: ``labels``, ``input_ids``, ``tokens``, ``batch["labels"]``).

When the logits come from a model called on the very ids that are gathered (directly or through a
helper that gathers its second argument from its first), the positions each side covers are followed
through the slices (``[:, :-1]``, ``[:, 1:]``, ``[:, -k:]``, ``logits_to_keep=k``) and the pairing is
checked whatever the shapes: logits trimmed with ``[:, :-1]`` gathered with the untrimmed ids (raises),
``logits_to_keep=k`` then ``[:, :-1]`` against the last k ids (needs ``k + 1``; raises), and ids gathered
at their own positions from a model whose class is a causal LM (``...ForCausalLM``, ``...LMHeadModel``,
or a class of the file causal by construction: a unidirectional ``nn.GRU``/``nn.LSTM``/``nn.RNN`` (not in
an encoder-decoder or latent autoencoder) or a causal attention mask, never one that shifts its inputs itself, or a parameter the function's docstring
describes as a causal LM; silent). The same-position pairing is
not reported for other models: a masked LM scores each token at its own position. Also reported: a
helper that drops the last logit and the first label itself, called with logits and labels the caller
already shifted (logits at t meet the label at t+2), and per-token values of ``ids[:, 1:]`` weighted by a
loss mask cut as ``[:, :-1]`` (each token takes the mask of the one before it; an attention mask, which
describes the inputs, is not).

A model class of the file whose ``forward`` hands its logits and its labels parameter, unsliced, to such a
gathering helper (``return lm_loss(logits, labels)``) is followed into its callers: ``model(ids, labels=ids)``
on a causal one scores every token at its own position, reported at the helper's gather. A forward that
shifts itself (``logits[..., :-1, :]`` against ``labels[..., 1:]``) is followed the same way: labels that
arrive already one token ahead of the ids, cut as ``seq[:-1]``/``seq[1:]`` by a Dataset's ``__getitem__``,
a ``collate_fn`` or a ``get_batch`` helper and unpacked from the DataLoader or the helper's result, are
shifted twice (logits at t meet the token at t+2), reported at the forward's gather.

A per-token loss pairs positions the same way: ``F.cross_entropy``/``F.nll_loss`` (or a
``nn.CrossEntropyLoss()`` module) of ``logits.view(-1, V)`` with ``labels.view(-1)`` (also ``view(B * T, C)``
with ``view(B * T)``, ``flatten(0, 1)``, einops' ``rearrange(x, "b t v -> (b t) v")``), or of
``logits.transpose(1, 2)`` with ``labels``, is checked like the gather. So ``model(**batch)`` whose collate
step copies the ids into the labels (``labels = input_ids.clone()``), into a causal forward that scores them
unshifted, is reported at the loss; a helper stored on the model (``self.loss_function = causal_lm_loss``)
that shifts itself (also by padding the labels and cutting ``[1:]``, when the caller leaves its
``shift_labels=None`` out) is followed like one the forward calls by name, and so is a method of the file
that gathers or scores its arguments (``self.next_token_loss(logits, labels)``).
Logits of a decoder that reads the labels shifted right (``shift_tokens_right(labels, ...)``, T5's
``_shift_right``, or a function of the file writing ``labels[:, :-1]`` into ``[:, 1:]``, also as the default
filled in for ``decoder_input_ids=None`` on the ``if labels is not None:`` training path) already predict the label at their own position: handed with those
labels to a helper that shifts again, each position is scored against the token two steps ahead.
A library causal LM (transformers' ``...ForCausalLM``/``...LMHeadModel``, ``AutoModelForCausalLM``) shifts
its labels itself: ``model(seq[:, :-1], labels=seq[:, 1:])`` shifts them twice (the decoder halves of
encoder-decoder models, ``BartForCausalLM`` and the like, take labels as given and are left out).
Per-token scores of the next tokens (``tokens[:, 1:]``, also returned by a helper that gathers them)
paired with a mask made from the same tokens (``tokens != pad``) at the unshifted positions, multiplied or
cut together in one statement (``lp, m = logprobs[:, s:e], mask[:, s:e]``), give each score the flag of the
token before it (the flags of the inputs cut ``[:, :-1]`` beside the scores of ``[:, 1:]``, multiplied, are read
as describing the inputs, as an attention mask is).
Labels a collate function (or a collator class's ``__call__``) copies from the ids (``labels = ids.clone()`` then ``labels[:, :n] = -100``: a
write of one value moves no token) are followed through ``for batch in DataLoader(..., collate_fn=fn)``, also
into a function of the file the batch is handed to.

Labels shifted with ``torch.roll(ids, -1, dims=1)`` instead of a slice wrap the first token to the last
position, where the last logits score it; reported when the gathered values are then summed unmasked or
weighted by a mask rolled the same way, or the rolled labels are a ``cross_entropy``/``nll_loss`` target,
and nothing cuts or overwrites the last position.

A completion joined after a prompt (``seq = torch.cat([prompt, completion], dim=1)``) covers positions
``[len(prompt):]`` of the joined ids (the length read as ``prompt.size(1)``, ``prompt.shape[-1]`` or a name
assigned it), so the logits on ``seq`` cut ``[:, start:]`` score each completion token at its own position.
Next-token scores (``logits[:, :-1]`` gathered with ``seq[:, 1:]``) cut ``[:, len(prompt):]`` start one token
into the completion: its first token's score is left out (the slice starts at ``len(prompt) - 1`` after the
shift). Also followed into a function of the file that every call hands the joined ids and the prompt's length.

A mask token written after each row's last real token (``seq[b, n[b]] = mask_token``, ``seq[torch.arange(B), n]``,
``seq.scatter_(1, n.unsqueeze(1), MASK_ID)``, also by a function of the file returning the sequence) and the
model's output on that sequence read at ``n - 1`` (a gather, a row-wise pick, or a function of the file that
gathers its first argument at its second) reads the last real token's state instead of the mask's; the token
must be named as a mask token (an end token read one position earlier is the causal-LM idiom).

Tokens appended at the end of a concatenation (``seq = torch.cat((prompt, actions), dim=-1)``) and scored
with the first positions of the model's output on it (``probs[:, :actions.shape[-1]]`` beside ``actions``)
are scored where the prompt was predicted: reported when the sliced tensor covers the whole concatenation
and the prompt part is not empty; the fix takes the last positions.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, gather_axis, named
from ._example import Example

CODE = "GL007"
NAME = "shift-misalignment"
SEVERITY = WARNING
FIX = None
RUNTIME = False  # slicing history is not visible at run time

_TINY_CAUSAL_LM = """
import torch
class TinyCausalLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed, self.head = torch.nn.Embedding(11, 8), torch.nn.Linear(8, 11)
    def forward(self, ids):
        return self.head(self.embed(ids).cumsum(1))  # position t sees tokens 0..t
model = TinyCausalLM()
input_ids = torch.randint(11, (2, 6))
logits = model(input_ids)
"""  # the model both halves of an example run

EXAMPLES = [
    Example(
        title="labels sliced like the logits",
        bad="""
import torch
logits = torch.randn(2, 6, 11)  # [B, L, V]
input_ids = torch.randint(11, (2, 6))
shift_logits = logits[:, :-1, :]
shift_labels = input_ids[:, :-1]
out = shift_logits.log_softmax(-1).gather(-1, shift_labels.unsqueeze(-1)).squeeze(-1)
lp = logits.log_softmax(-1)
expected = torch.stack([torch.stack([lp[b, t, input_ids[b, t + 1]] for t in range(5)]) for b in range(2)])
""",
        good="""
import torch
logits = torch.randn(2, 6, 11)  # [B, L, V]
input_ids = torch.randint(11, (2, 6))
shift_logits = logits[:, :-1, :]
shift_labels = input_ids[:, 1:]
out = shift_logits.log_softmax(-1).gather(-1, shift_labels.unsqueeze(-1)).squeeze(-1)
lp = logits.log_softmax(-1)
expected = torch.stack([torch.stack([lp[b, t, input_ids[b, t + 1]] for t in range(5)]) for b in range(2)])
""",
    ),
    Example(
        title="the ids a causal LM was fed, gathered at their own positions",
        bad=_TINY_CAUSAL_LM + """\
out = logits.log_softmax(-1).gather(-1, input_ids.unsqueeze(-1)).squeeze(-1)
lp = logits.log_softmax(-1)
expected = torch.stack([torch.stack([lp[b, t, input_ids[b, t + 1]] for t in range(5)]) for b in range(2)])
""",
        good=_TINY_CAUSAL_LM + """\
out = logits[:, :-1].log_softmax(-1).gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
lp = logits.log_softmax(-1)
expected = torch.stack([torch.stack([lp[b, t, input_ids[b, t + 1]] for t in range(5)]) for b in range(2)])
""",
    ),
    Example(
        title="labels and target mask shifted with torch.roll",
        bad="""
import torch
logits = torch.randn(2, 6, 11)  # [B, L, V]
labels = torch.randint(11, (2, 6))
target_mask = torch.ones(2, 6)
shifted_labels = torch.roll(labels, shifts=-1, dims=1)
shifted_mask = torch.roll(target_mask, shifts=-1, dims=1)
token_lp = logits.log_softmax(-1).gather(-1, shifted_labels.unsqueeze(-1)).squeeze(-1)
out = (token_lp * shifted_mask).sum(1)
lp = logits.log_softmax(-1)
expected = torch.stack([sum(lp[b, t, labels[b, t + 1]] for t in range(5)) for b in range(2)])
""",
        good="""
import torch
logits = torch.randn(2, 6, 11)  # [B, L, V]
labels = torch.randint(11, (2, 6))
target_mask = torch.ones(2, 6)
shifted_labels = labels[:, 1:]
shifted_mask = target_mask[:, 1:]
token_lp = logits[:, :-1].log_softmax(-1).gather(-1, shifted_labels.unsqueeze(-1)).squeeze(-1)
out = (token_lp * shifted_mask).sum(1)
lp = logits.log_softmax(-1)
expected = torch.stack([sum(lp[b, t, labels[b, t + 1]] for t in range(5)) for b in range(2)])
""",
    ),
]

_OTHER = {"drop_last": "drop_first", "drop_first": "drop_last"}
_SLICE = {"drop_last": ":-1", "drop_first": "1:"}


def check(site: Site) -> Optional[Violation]:
    a, b = site.input.shift, site.index.shift
    if a is None or b is None or a != b:
        return None
    axis, kind = a
    if gather_axis(site) == axis:
        return None  # the sliced axis is the gathered one: not the next-token idiom
    return Violation(
        CODE, SEVERITY,
        f"{named(site.input)} and the index {named(site.index)} both take [{_SLICE[kind]}] on dim {axis}; "
        f"logits at position t predict token t+1, so the labels need [{_SLICE[_OTHER[kind]]}] when the logits take "
        f"[{_SLICE[kind]}]; as written each token is scored by the prediction made at it, silently",
    )


def rolled_labels(roll: str, labels: Optional[str], dims: str, mask: Optional[str], loss: Optional[str] = None) -> Violation:
    """Labels shifted with `torch.roll(ids, -1, dims)`: the last position wraps to the first token."""
    if loss:
        counted = f"{loss}() counts that position (its label is a real token, not the ignore index)"
    elif mask:
        counted = f"the mask `{mask}`, rolled the same way, takes the first position's value there"
    else:
        counted = "the values are summed with nothing cutting that position"
    fixed = "logits[:, :-1]` with `labels[:, 1:]"
    made = f"{labels} = {roll}" if labels else roll
    last = f"`{labels}[..., -1] = -100`" if labels else "the last label to -100"
    return Violation(
        CODE, SEVERITY,
        f"`{made}` wraps the first token to the end of dim {dims}: the last logits are scored against "
        f"token 0 of the same sequence, and {counted}, silently; shift by slicing (`{fixed}`) or mask the last "
        f"position ({last} or the mask's last column to 0)",
        help=f"shift by slicing (`{fixed}`) or mask the last position",
    )

