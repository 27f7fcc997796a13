"""GL007 through a model's own loss: `model(ids, labels=ids)` on a causal model class of the file whose
forward passes its logits and its labels, unshifted, to a per-token gathering helper."""
import pytest

from .conftest import lint

HELPER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


def token_nll(scores, targets):
    logp = F.log_softmax(scores, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()
'''

ATTENTION_MODULE_LEVEL = HELPER + '''

class Decoder(nn.Module):
    def __init__(self, vocab, width, max_len):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.layer = nn.TransformerEncoderLayer(width, 2, batch_first=True)
        self.out = nn.Linear(width, vocab)
        self.register_buffer("mask", torch.tril(torch.ones(max_len, max_len)))

    def forward(self, tokens, targets=None):
        h = self.layer(self.tok(tokens), src_mask=self.mask == 0)
        scores = self.out(h)
        if targets is None:
            return scores
        return token_nll(scores, targets)


if __name__ == "__main__":
    net = Decoder(50, 8, 6).eval()
    batch = torch.randint(0, 50, (2, 6))
    loss = net(batch, targets=batch)
'''

RECURRENT_IN_FUNCTION = HELPER + '''

class CharRNN(nn.Module):
    def __init__(self, n_chars, hidden):
        super().__init__()
        self.embed = nn.Embedding(n_chars, hidden)
        self.lstm = nn.LSTM(hidden, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, n_chars)

    def forward(self, chars, gold):
        states, _ = self.lstm(self.embed(chars))
        return token_nll(self.proj(states), gold)


def train_step(text):
    rnn = CharRNN(30, 16).to("cpu")
    return rnn(text, text)


if __name__ == "__main__":
    train_step(torch.randint(0, 30, (4, 12)))
'''

CAUSAL_NAME_KEYWORDS = HELPER + '''

class TinyForCausalLM(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.head = nn.Linear(width, vocab)

    def forward(self, input_ids, labels=None):
        logits = self.head(torch.tanh(self.wte(input_ids)))
        if labels is not None:
            return token_nll(logits, labels), logits
        return logits


def evaluate(data):
    model = TinyForCausalLM(40, 8)
    loss, _ = model(input_ids=data, labels=data)
    return loss


if __name__ == "__main__":
    print(evaluate(torch.randint(0, 40, (2, 5))))
'''


INLINE_GATHER = '''
import torch
import torch.nn as nn


class WordGRU(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.gru = nn.GRU(width, width, batch_first=True)
        self.fc = nn.Linear(width, vocab)

    def forward(self, words, labels=None):
        out, _ = self.gru(self.emb(words))
        logp = self.fc(out).log_softmax(-1)
        if labels is None:
            return logp
        kept = labels.clamp(min=0)
        return -logp.gather(2, kept.unsqueeze(-1)).mean()


if __name__ == "__main__":
    lm = WordGRU(20, 8)
    sentence = torch.randint(0, 20, (3, 7))
    print(lm(sentence, labels=sentence))
'''


@pytest.mark.parametrize("code", [ATTENTION_MODULE_LEVEL, RECURRENT_IN_FUNCTION, CAUSAL_NAME_KEYWORDS],
                         ids=["attention-mask-module-level", "lstm-in-function", "causal-name-keywords"])
def test_labels_gathered_at_the_logits_own_positions(code):
    found = [f for f in lint(code) if f.code == "GL007"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(code)]
    assert "at its own positions" in found[0].message and ".forward" in found[0].message
    assert found[0].line == code.splitlines().index(
        "    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()") + 1  # reported at the gather


SHIFTING_HELPER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


def token_nll(scores, targets):
    logp = F.log_softmax(scores[:, :-1], dim=-1)
    return -logp.gather(-1, targets[:, 1:].unsqueeze(-1)).mean()


class Decoder(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.rnn = nn.GRU(width, width, batch_first=True)
        self.out = nn.Linear(width, vocab)

    def forward(self, tokens, targets):
        h, _ = self.rnn(self.tok(tokens))
        return token_nll(self.out(h), targets)


if __name__ == "__main__":
    net = Decoder(50, 8)
    batch = torch.randint(0, 50, (2, 6))
'''


@pytest.mark.parametrize("code", [
    SHIFTING_HELPER + "    loss = net(batch, batch)\n",  # the helper shifts: right
    # targets cut one ahead of the inputs by the caller (the nanoGPT convention): right
    RECURRENT_IN_FUNCTION.replace("return rnn(text, text)", "return rnn(text[:, :-1], text[:, 1:])"),
    # a bidirectional encoder scores each position legitimately
    RECURRENT_IN_FUNCTION.replace("nn.LSTM(hidden, hidden, batch_first=True)",
                                  "nn.LSTM(hidden, hidden // 2, batch_first=True, bidirectional=True)"),
    # forward shifts the logits itself before the helper: not summarised
    ATTENTION_MODULE_LEVEL.replace("return token_nll(scores, targets)",
                                   "return token_nll(scores[:, :-1], targets[:, 1:])"),
])
def test_shifted_or_bidirectional_stays_silent(code):
    assert "GL007" not in [f.code for f in lint(code)]


def test_forward_gathering_its_labels_itself():
    found = [f for f in lint(INLINE_GATHER) if f.code == "GL007"]
    assert len(found) == 1 and "at its own positions" in found[0].message, [f.message for f in lint(INLINE_GATHER)]
    assert found[0].line == INLINE_GATHER.splitlines().index("        return -logp.gather(2, kept.unsqueeze(-1)).mean()") + 1


@pytest.mark.parametrize("code", [
    INLINE_GATHER.replace("print(lm(sentence, labels=sentence))", "print(lm(sentence[:, :-1], labels=sentence[:, 1:]))"),
    INLINE_GATHER.replace("kept = labels.clamp(min=0)", "kept = labels[:, 1:].clamp(min=0)").replace(
        "logp = self.fc(out).log_softmax(-1)", "logp = self.fc(out)[:, :-1].log_softmax(-1)"),
])
def test_inline_gather_shifted_stays_silent(code):
    assert "GL007" not in [f.code for f in lint(code)]


def test_torch_same_position_scores_differ_from_next_token(torch):
    """The message's claim: gathering ids at their own positions scores another prediction than t -> t+1."""
    torch.manual_seed(0)
    logits = torch.randn(2, 6, 11)
    ids = torch.randint(0, 11, (2, 6))
    logp = logits.log_softmax(-1)
    same = logp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)[:, 1:]
    nxt = logp[:, :-1].gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    assert same.shape == nxt.shape and not torch.allclose(same, nxt)



def test_only_classes_built_or_annotated_in_the_file_are_summarised():
    """A library's heads (built elsewhere) are not summarised; a class built here, or named by an annotation,
    is (the summaries cost a walk of every forward that scores its labels)."""
    import ast

    from gather_lint.static import model_loss_calls, token_shift
    tree = ast.parse(RECURRENT_IN_FUNCTION)
    index = token_shift._ModuleIndex(tree, RECURRENT_IN_FUNCTION)
    helpers = {"token_nll": (0, 1, token_shift.FULL, token_shift.FULL, None)}
    every = model_loss_calls.summaries(tree, helpers, lambda fn: True)
    used = model_loss_calls.summaries(tree, helpers, lambda fn: True,
                                      used=lambda name: token_shift._built_or_annotated(name, index))
    assert list(every) == list(used) == ["CharRNN"]
    unbuilt = RECURRENT_IN_FUNCTION.replace('rnn = CharRNN(30, 16).to("cpu")', "rnn = make()")
    index = token_shift._ModuleIndex(ast.parse(unbuilt), unbuilt)
    assert not token_shift._built_or_annotated("CharRNN", index)
    annotated = unbuilt.replace("def train_step(text):", "def train_step(text, rnn: 'CharRNN'):")
    assert token_shift._built_or_annotated("CharRNN", token_shift._ModuleIndex(ast.parse(annotated), annotated))
