"""Lookups into embedding tables and other id tables: what the ids are (dtype) and how large they can
get (an id equal to the row count, tokens added after the table was sized, positions past a position
table). Each snippet is a script with a driver, as the checks need the sizes its driver passes; each
finding's claim is run in torch here."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_program


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def line_of(code: str, text: str) -> int:
    """1-based line of the first line of the (dedented) snippet that holds text."""
    return next(n for n, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


def run(code: str):
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


EMBEDDING_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int"


# ----- a comparison mask as ids ---------------------------------------------------------------

BOOL_SEGMENTS_MODULE = """
import torch
import torch.nn as nn


class TaggedEncoder(nn.Module):
    def __init__(self, n_symbols, width, first_tag):
        super().__init__()
        self.first_tag = first_tag
        self.symbols = nn.Embedding(n_symbols, width)
        self.kinds = nn.Embedding(2, width)

    def forward(self, tokens):
        is_tag = tokens >= self.first_tag
        return self.symbols(tokens) + self.kinds(is_tag)


if __name__ == "__main__":
    vocab = ["<pad>", "a", "b", "c", "TAG1", "TAG2"]
    enc = TaggedEncoder(len(vocab), 4, 4)
    out = enc(torch.tensor([[1, 2, 4], [3, 5, 0]]))
"""


def test_bool_mask_into_an_embedding_layer(torch):
    assert findings(BOOL_SEGMENTS_MODULE) == [(15, "GL008")]
    with pytest.raises(RuntimeError, match="Long, Int; but got CPUBoolType instead"):
        run(BOOL_SEGMENTS_MODULE)


def test_bool_mask_fixed_with_long_is_silent(torch):
    fixed = BOOL_SEGMENTS_MODULE.replace("self.kinds(is_tag)", "self.kinds(is_tag.long())")
    assert findings(fixed) == []
    run(fixed)


def test_bool_mask_into_functional_embedding_from_a_helper(torch):
    code = """
    import torch
    import torch.nn.functional as F


    def side_features(ids, table, boundary):
        side = ids < boundary
        return F.embedding(side, table)


    if __name__ == "__main__":
        table = torch.randn(2, 3)
        feats = side_features(torch.tensor([0, 5, 2, 7]), table, 4)
    """
    assert findings(code) == [(8, "GL008")]
    with pytest.raises(RuntimeError, match=EMBEDDING_ERROR):
        run(code)


def test_float_ids_into_a_local_embedding(torch):
    code = """
    import torch
    import torch.nn as nn

    if __name__ == "__main__":
        buckets = nn.Embedding(10, 4)
        ages = torch.tensor([3.0, 17.0, 42.0])
        bucket_ids = (ages / 10).floor()
        vecs = buckets(bucket_ids)
    """
    assert findings(code) == [(9, "GL008")]
    with pytest.raises(RuntimeError, match=EMBEDDING_ERROR):
        run(code)


def test_mask_used_as_a_mask_not_ids_is_silent():
    code = """
    import torch
    import torch.nn as nn


    class Masked(nn.Module):
        def __init__(self, n, d):
            super().__init__()
            self.emb = nn.Embedding(n, d)

        def forward(self, ids, pad_id):
            keep = ids != pad_id
            return self.emb(ids) * keep.unsqueeze(-1)


    if __name__ == "__main__":
        out = Masked(8, 3)(torch.tensor([[1, 2, 0]]), 0)
    """
    assert findings(code) == []


# ----- tokens added after the table was sized ---------------------------------------------------

WORD_TOKENIZER = """
import torch
import torch.nn as nn


class WordTokenizer:
    def __init__(self, words):
        self.ids = {w: i for i, w in enumerate(words)}

    def add_tokens(self, tokens):
        for t in tokens:
            self.ids.setdefault(t, len(self.ids))
        return len(tokens)

    def __len__(self):
        return len(self.ids)

    def __call__(self, words):
        return torch.tensor([[self.ids[w] for w in words]])


class Classifier(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, dim)
        self.out = nn.Linear(dim, 2)

    def forward(self, ids):
        return self.out(self.tokens(ids).mean(1))
"""


def test_tokens_added_after_model_sized_with_len(torch):
    code = WORD_TOKENIZER + """

if __name__ == "__main__":
    tok = WordTokenizer(["a", "b", "c"])
    model = Classifier(len(tok), 4)
    tok.add_tokens(["<sep>", "<mask>"])
    logits = model(tok(["a", "<sep>", "b"]))
"""
    # at the add, and where the class reads the table
    assert findings(code) == [(line_of(code, "self.tokens(ids)"), "GL011"), (line_of(code, "tok.add_tokens"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_tokens_added_first_or_table_resized_is_silent(torch):
    first = WORD_TOKENIZER + """

if __name__ == "__main__":
    tok = WordTokenizer(["a", "b", "c"])
    tok.add_tokens(["<sep>", "<mask>"])
    model = Classifier(len(tok), 4)
    logits = model(tok(["a", "<sep>", "b"]))
"""
    assert findings(first) == []
    run(first)
    resized = WORD_TOKENIZER + """

def resize(model, n):
    model.tokens = nn.Embedding(n, model.tokens.embedding_dim)


if __name__ == "__main__":
    tok = WordTokenizer(["a", "b", "c"])
    model = Classifier(len(tok), 4)
    tok.add_tokens(["<sep>", "<mask>"])
    resize(model, len(tok))
    logits = model(tok(["a", "<sep>", "b"]))
"""
    assert findings(resized) == []
    run(resized)


def test_model_sized_from_a_config_count_after_the_add(torch):
    code = WORD_TOKENIZER + """

def main():
    config = {"vocab_size": 5, "dim": 4}
    words = ["<pad>", "<cls>"] + [f"w{i}" for i in range(3)]
    tok = WordTokenizer(words)
    tok.add_tokens(["<e1>", "</e1>"])
    model = Classifier(config["vocab_size"], config["dim"])
    return model(tok(["<cls>", "<e1>", "w1", "</e1>"]))


if __name__ == "__main__":
    main()
"""
    assert findings(code) == [(line_of(code, "self.tokens(ids)"), "GL011"), (line_of(code, "model = Classifier"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_config_dict_handed_to_a_submodule_and_a_parameter_table(torch):
    code = """
import torch
import torch.nn as nn


class Vocab:
    def __init__(self, tokens):
        self.stoi = dict(tokens)

    def add_special_tokens(self, tokens):
        for t in tokens:
            self.stoi.setdefault(t, len(self.stoi))

    def encode(self, words):
        return torch.tensor([self.stoi[w] for w in words])


class Table(nn.Module):
    def __init__(self, rows, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(rows, dim))

    def forward(self, ids):
        return self.weight.index_select(0, ids)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.table = Table(cfg["n_tokens"], cfg["width"])

    def forward(self, ids):
        return self.table(ids).sum(0)


if __name__ == "__main__":
    base = {f"t{i}": i for i in range(6)}
    vocab = Vocab(base)
    cfg = {"n_tokens": 6, "width": 3}
    encoder = Encoder(cfg)
    vocab.add_special_tokens(["[USER]"])
    vec = encoder(vocab.encode(["t1", "[USER]"]))
"""
    assert findings(code) == [(line_of(code, "self.weight.index_select"), "GL011"),
                              (line_of(code, "vocab.add_special_tokens(["), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_table_larger_than_the_vocabulary_or_never_used_is_silent(torch):
    larger = WORD_TOKENIZER + """

if __name__ == "__main__":
    tok = WordTokenizer(["a", "b", "c"])
    model = Classifier(64, 4)
    tok.add_tokens(["<sep>"])
    logits = model(tok(["a", "<sep>"]))
"""
    assert findings(larger) == []
    run(larger)
    unused = WORD_TOKENIZER + """

if __name__ == "__main__":
    tok = WordTokenizer(["a", "b", "c"])
    model = Classifier(len(tok), 4)
    tok.add_tokens(["<sep>"])
    print(len(tok))
"""
    assert findings(unused) == []


# ----- an id written past the size, through take_along_dim (which wraps) -----------------------

def test_special_id_past_the_head_wraps_in_take_along_dim(torch):
    code = """
    import torch

    def token_scores(logits, ids):
        logp = logits.log_softmax(-1)
        return torch.take_along_dim(logp, ids.unsqueeze(-1), dim=-1).squeeze(-1)

    if __name__ == "__main__":
        logits = torch.randn(2, 5, 50)
        ids = torch.randint(0, 50, (2, 5))
        ids[0, 3] = 51
        scores = token_scores(logits, ids)
    """
    assert findings(code) == [(line_of(code, "torch.take_along_dim"), "GL010")]
    scope = run(code)
    logp = scope["logits"].log_softmax(-1)
    # silently read: 51 wraps to 1, and gather with the same ids raises
    assert torch.equal(scope["scores"][0, 3], logp[0, 3, 1])
    with pytest.raises(RuntimeError, match="index 51 is out of bounds"):
        logp.gather(-1, scope["ids"].unsqueeze(-1))


def test_id_written_within_the_head_is_silent(torch):
    code = """
    import torch

    class Scorer:
        def __init__(self, vocab):
            self.vocab = vocab

        def score(self, logits, ids):
            return torch.take_along_dim(logits, ids[..., None], dim=2)[..., 0]

    if __name__ == "__main__":
        logits = torch.randn(3, 4, 40)
        ids = torch.randint(0, 40, (3, 4))
        ids[:, 0] = 39
        out = Scorer(40).score(logits, ids)
    """
    assert findings(code) == []
    run(code)


# ----- positions from arange(L) into a position table of fewer rows ---------------------------

LEARNED_POSITIONS = """
import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self, vocab, dim, max_len):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)

    def forward(self, ids):
        positions = torch.arange(ids.size(1))
        return self.tok(ids) + self.pos(positions)


if __name__ == "__main__":
    emb = Embeddings(100, 8, 64)
    out = emb(torch.randint(0, 100, (2, SEQ_LEN)))
"""


def test_sequence_longer_than_the_position_table(torch):
    code = LEARNED_POSITIONS.replace("SEQ_LEN", "80")
    assert findings(code) == [(line_of(code, "self.pos(positions)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_sequence_within_the_position_table_is_silent(torch):
    code = LEARNED_POSITIONS.replace("SEQ_LEN", "64")
    assert findings(code) == []
    run(code)


def test_positions_in_a_helper_with_a_functional_table(torch):
    code = """
    import torch
    import torch.nn.functional as F

    MAX_POSITIONS = 16


    def add_positions(x, table):
        pos = torch.arange(x.shape[0])
        return x + F.embedding(pos, table)


    if __name__ == "__main__":
        table = torch.randn(MAX_POSITIONS, 4)
        frames = torch.randn(24, 4)  # [T, D]
        y = add_positions(frames, table)
    """
    assert findings(code) == [(line_of(code, "F.embedding(pos, table)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_positions_of_a_table_sized_from_the_same_length_are_silent(torch):
    code = """
    import torch
    import torch.nn as nn

    class Tagger(nn.Module):
        def __init__(self, seq_len, dim):
            super().__init__()
            self.pos = nn.Embedding(seq_len, dim)

        def forward(self, x):
            # x: [B, L, D]
            return x + self.pos(torch.arange(x.size(1)))

    if __name__ == "__main__":
        out = Tagger(12, 4)(torch.randn(2, 12, 4))
    """
    assert findings(code) == []
    run(code)


def test_positions_expanded_over_the_batch_in_a_decoder_step(torch):
    code = """
    import torch
    import torch.nn as nn


    class Decoder(nn.Module):
        def __init__(self, n_positions, width):
            super().__init__()
            self.wpe = nn.Embedding(n_positions, width)

        def forward(self, hidden, past_length):
            batch, steps = hidden.shape[0], hidden.shape[1]
            position_ids = torch.arange(past_length, past_length + steps)
            position_ids = position_ids.unsqueeze(0).expand(batch, -1)
            return hidden + self.wpe(position_ids)


    if __name__ == "__main__":
        out = Decoder(32, 4)(torch.randn(2, 8, 4), 30)
    """
    assert findings(code) == [(line_of(code, "self.wpe(position_ids)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_a_slice_or_remainder_of_the_positions_is_silent(torch):
    code = """
    import torch
    import torch.nn as nn

    if __name__ == "__main__":
        table = nn.Embedding(8, 2)
        pos = torch.arange(20)
        a = table(pos[:8])
        b = table(pos % 8)
        c = table(pos.clamp(max=7))
    """
    assert findings(code) == []
    run(code)


# ----- ids read out of an id table keep the size they were made for ---------------------------

NEIGHBOUR_TABLE = """
import torch

def scores(logits, table, rows):
    nbrs = SELECT
    return logits.gather(1, nbrs)

if __name__ == "__main__":
    n = 12
    table = (torch.arange(n)[:, None] + torch.tensor([-1, 0, 1])).clamp(0, n - 1)
    out = scores(torch.randn(4, WIDTH), table, torch.tensor([0, 3, 5, 11]))
"""


@pytest.mark.parametrize("select", ["table.index_select(0, rows)", "table[rows]",
                                    "torch.gather(table, 0, rows[:, None].expand(-1, 3))"])
def test_neighbour_ids_of_more_cells_than_the_output_has_classes(select, torch):
    code = NEIGHBOUR_TABLE.replace("SELECT", select).replace("WIDTH", "10")
    assert findings(code) == [(line_of(code, "logits.gather"), "GL011")]
    with pytest.raises(RuntimeError, match="index 1[01] is out of bounds for dimension 1 with size 10"):
        run(code)


def test_neighbour_ids_within_the_output_are_silent(torch):
    code = NEIGHBOUR_TABLE.replace("SELECT", "table.index_select(0, rows)").replace("WIDTH", "12")
    assert findings(code) == []
    run(code)


def test_neighbour_table_as_a_module_buffer(torch):
    code = """
    import torch
    import torch.nn as nn


    class SmoothedTarget(nn.Module):
        def __init__(self, neighbours):
            super().__init__()
            self.register_buffer("neighbours", neighbours)

        def forward(self, log_probs, target):
            near = self.neighbours.index_select(0, target)
            return log_probs.gather(1, near).mean()


    if __name__ == "__main__":
        cells = 30
        near = (torch.arange(cells).unsqueeze(1) + torch.arange(-2, 3)).clamp(0, cells - 1)
        head = nn.Sequential(nn.Linear(8, 28), nn.LogSoftmax(dim=1))
        target = torch.randint(0, 28, (5,))
        target[0] = 27
        loss = SmoothedTarget(near)(head(torch.randn(5, 8)), target)
    """
    assert findings(code) == [(line_of(code, "log_probs.gather(1, near)"), "GL011")]
    with pytest.raises(RuntimeError, match="out of bounds for dimension 1 with size 28"):
        run(code)


# ----- an id equal to the table's size: a constant fill, a literal ------------------------------

def test_mask_ids_filled_with_the_vocab_size(torch):
    code = """
    import torch
    import torch.nn as nn


    class MaskedLM(nn.Module):
        def __init__(self, vocab_size, dim):
            super().__init__()
            self.vocab_size = vocab_size
            self.tokens = nn.Embedding(vocab_size, dim)

        def corrupt(self, ids):
            mask_ids = ids.new_full(ids.shape, self.vocab_size)  # a [MASK] id past the vocabulary
            return self.tokens(mask_ids)


    if __name__ == "__main__":
        model = MaskedLM(10, 4)
        out = model.corrupt(torch.randint(0, 10, (2, 5)))
    """
    assert findings(code) == [(line_of(code, "self.tokens(mask_ids)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_padding_block_filled_with_the_row_count_in_a_function(torch):
    code = """
    import torch
    import torch.nn.functional as F

    def pad_block(weight, batch, width):
        pad = torch.full((batch, width), weight.shape[0])
        return F.embedding(pad, weight)

    if __name__ == "__main__":
        out = pad_block(torch.randn(7, 3), 2, 4)
    """
    assert findings(code) == [(line_of(code, "F.embedding(pad, weight)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_fill_with_the_last_row_is_silent(torch):
    code = """
    import torch
    import torch.nn as nn

    def pad_ids(table, n):
        pad = torch.full((n,), table.num_embeddings - 1)
        return table(pad)

    if __name__ == "__main__":
        table = nn.Embedding(7, 3)
        out = table(torch.full((2, 4), 6))
    """
    assert findings(code) == []
    run(code)


def test_literal_id_equal_to_the_row_count(torch):
    code = """
    import torch
    import torch.nn as nn

    if __name__ == "__main__":
        emb = nn.Embedding(32, 4)
        prompt = emb(torch.tensor([[1, 5, 9, 32]]))
    """
    assert findings(code) == [(line_of(code, "prompt = emb"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_literal_ids_in_a_method_through_a_local_name(torch):
    code = """
    import torch
    import torch.nn as nn


    class Prompted(nn.Module):
        def __init__(self, n_tokens):
            super().__init__()
            self.table = nn.Embedding(n_tokens, 2)

        def forward(self):
            special = torch.tensor([0, 1, 2, 3])
            return self.table(special.unsqueeze(0))


    if __name__ == "__main__":
        out = Prompted(3)()
        ok = Prompted(4)()
    """
    assert findings(code) == [(line_of(code, "self.table(special"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


# ----- class targets against the classes of cross_entropy / nll_loss ----------------------------

CLASSIFIER = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, dim, n_classes):
        super().__init__()
        self.fc = nn.Linear(dim, n_classes)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x, y):
        return self.criterion(self.fc(x), y)


if __name__ == "__main__":
    head = Head(8, HEAD_CLASSES)
    torch.manual_seed(0)
    y = torch.randint(0, 6, (64,))
    loss = head(torch.randn(64, 8), y)
"""


def test_labels_of_more_classes_than_the_head(torch):
    code = CLASSIFIER.replace("HEAD_CLASSES", "5")
    assert findings(code) == [(line_of(code, "self.criterion(self.fc(x), y)"), "GL011")]
    with pytest.raises(IndexError, match="Target 5 is out of bounds"):
        run(code)


def test_labels_within_the_head_are_silent(torch):
    code = CLASSIFIER.replace("HEAD_CLASSES", "6")
    assert findings(code) == []
    run(code)


def test_literal_targets_for_a_sequence_loss_in_a_function(torch):
    code = """
    import torch
    import torch.nn.functional as F

    def token_loss(logits, targets):
        # logits: [B, V, T]
        return F.nll_loss(logits.log_softmax(1), targets)

    if __name__ == "__main__":
        targets = torch.tensor([[1, 2, 7], [0, 3, 3]])
        loss = token_loss(torch.randn(2, 7, 3), targets)
    """
    # the literal lives in the driver, the loss in the helper: its largest value (7) comes with the call
    assert findings(code) == [(line_of(code, "F.nll_loss"), "GL011")]
    direct = """
    import torch
    import torch.nn.functional as F

    if __name__ == "__main__":
        logits = torch.randn(2, 7, 3)
        loss = F.nll_loss(logits.log_softmax(1), torch.tensor([[1, 2, 7], [0, 3, 3]]))
    """
    assert findings(direct) == [(line_of(direct, "F.nll_loss"), "GL011")]
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        run(direct)


def test_soft_targets_and_ignored_labels_are_silent(torch):
    code = """
    import torch
    import torch.nn.functional as F

    if __name__ == "__main__":
        logits = torch.randn(4, 3)
        soft = torch.softmax(torch.randn(4, 3), -1)
        a = F.cross_entropy(logits, soft)
        b = F.cross_entropy(logits, torch.tensor([0, 2, -100, 1]), ignore_index=-100)
    """
    assert findings(code) == []
    run(code)


def test_special_tokens_dict_added_before_a_training_helper_gets_the_model(torch):
    code = """
    import torch
    import torch.nn as nn


    class CharVocab:
        def __init__(self, chars):
            self.index = {c: i for i, c in enumerate(chars)}

        def add_special_tokens(self, special):
            for tok in special.values():
                self.index.setdefault(tok, len(self.index))

        def encode(self, text):
            return [self.index[c] for c in text] + [self.index["<eos>"]]


    def train(model, vocab, texts):
        batch = torch.tensor([vocab.encode(t) for t in texts])
        return model(batch).sum()


    if __name__ == "__main__":
        vocab = CharVocab("abcdef")
        model = nn.Sequential(nn.Embedding(len(vocab.index), 4), nn.Linear(4, 1))
        added = vocab.add_special_tokens({"eos_token": "<eos>"})
        train(model, vocab, ["abc", "fed"])
    """
    assert findings(code) == [(line_of(code, "added = vocab.add_special_tokens"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_token_type_ids_of_ones_for_a_single_type_table(torch):
    code = """
    import torch
    import torch.nn as nn


    class Embeddings(nn.Module):
        def __init__(self, vocab_size, type_vocab_size, hidden):
            super().__init__()
            self.words = nn.Embedding(vocab_size, hidden)
            self.token_type = nn.Embedding(type_vocab_size, hidden)

        def forward(self, input_ids):
            token_type_ids = torch.ones_like(input_ids)  # second segment
            return self.words(input_ids) + self.token_type(token_type_ids)


    if __name__ == "__main__":
        emb = Embeddings(50, TYPES, 8)
        out = emb(torch.randint(0, 50, (2, 6)))
    """
    single = code.replace("TYPES", "1")
    assert findings(single) == [(line_of(single, "self.token_type(token_type_ids)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(single)
    pair = code.replace("TYPES", "2")
    assert findings(pair) == []
    run(pair)


def test_float_ones_are_not_ids():
    code = """
    import torch
    import torch.nn as nn

    if __name__ == "__main__":
        gate = nn.Embedding(1, 4)
        w = torch.ones(3, 4)
        out = gate(torch.zeros(3, dtype=torch.long)) * w
    """
    assert findings(code) == []


EOS_APPENDED = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class LM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.eos_id = vocab_size
        self.emb = nn.Embedding(vocab_size + EXTRA, dim)

    def with_eos(self, ids):
        eos = torch.full((ids.size(0), 1), self.eos_id, dtype=torch.long)
        return self.emb(torch.cat([ids, eos], dim=1))

    def right_padded(self, ids):
        return self.emb(F.pad(ids, (0, 3), value=self.eos_id))


if __name__ == "__main__":
    lm = LM(10, 4)
    a = lm.with_eos(torch.randint(0, 10, (2, 5)))
    b = lm.right_padded(torch.randint(0, 10, (2, 5)))
"""


def test_eos_id_past_the_table_appended_by_cat_or_pad(torch):
    code = EOS_APPENDED.replace("EXTRA", "0")
    assert findings(code) == [(line_of(code, "self.emb(torch.cat"), "GL011"),
                              (line_of(code, "self.emb(F.pad"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)
    only_pad = code.replace("a = lm.with_eos(torch.randint(0, 10, (2, 5)))", "")
    with pytest.raises(IndexError, match="index out of range in self"):
        run(only_pad)


def test_eos_id_with_a_row_of_its_own_is_silent(torch):
    code = EOS_APPENDED.replace("EXTRA", "1")
    assert findings(code) == []
    run(code)


def test_tokens_added_from_a_named_list_after_a_direct_embedding(torch):
    code = """
    import torch
    import torch.nn as nn


    class Tok:
        def __init__(self, words):
            self.vocab = dict(words)

        def add_tokens(self, new):
            for w in new:
                self.vocab.setdefault(w, len(self.vocab))

        def __len__(self):
            return len(self.vocab)

        def ids(self, words):
            return torch.tensor([self.vocab[w] for w in words])


    def main():
        tok = Tok({"a": 0, "b": 1, "c": 2})
        table = nn.Embedding(len(tok), 4)
        markers = ["<e>", "</e>"]
        tok.add_tokens(markers)
        return table(tok.ids(["a", "<e>", "b", "</e>"]))


    if __name__ == "__main__":
        main()
    """
    assert findings(code) == [(line_of(code, "tok.add_tokens(markers)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


@pytest.mark.parametrize("dtype", ["bool", "float32", "float64", "float16", "bfloat16", "uint8", "int16", "int8"])
def test_dtype_message_names_the_type_torch_names(dtype, torch):
    from gather_lint.static.embedding_lookups import dtype_message

    with pytest.raises(RuntimeError) as raised:
        torch.nn.Embedding(4, 2)(torch.zeros(3, dtype=getattr(torch, dtype)))
    said = str(raised.value)
    shown = said.split("but got ")[1].split(" instead")[0]
    assert f"but got {shown} instead" in dtype_message("ids", dtype, "the table").message


def test_literal_ids_named_in_the_driver_and_a_slice_without_the_bad_id(torch):
    code = """
    import torch
    import torch.nn as nn

    if __name__ == "__main__":
        emb = nn.Embedding(10, 4)
        ids = torch.tensor([[1, 2, 10]])
        whole = emb(ids.unsqueeze(0))
        head = emb(ids[:, :2])
    """
    assert findings(code) == [(line_of(code, "whole = emb"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)
    sliced = code.replace("whole = emb(ids.unsqueeze(0))", "")
    assert findings(sliced) == []
    run(sliced)


def test_one_hot_of_labels_made_for_more_classes(torch):
    code = """
    import torch
    import torch.nn.functional as F


    def soft_targets(labels, n_classes, eps=0.1):
        hot = F.one_hot(labels, n_classes).float()
        return hot * (1 - eps) + eps / n_classes


    if __name__ == "__main__":
        torch.manual_seed(0)
        labels = torch.randint(0, 11, (64,))
        targets = soft_targets(labels, 10)
        literal = F.one_hot(torch.tensor([0, 2, 3]), num_classes=3)
    """
    assert findings(code) == [(line_of(code, "hot = F.one_hot"), "GL011"), (line_of(code, "literal = F.one_hot"), "GL011")]
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        run(code)
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        torch.nn.functional.one_hot(torch.tensor([0, 2, 3]), num_classes=3)
    fine = code.replace("randint(0, 11", "randint(0, 10").replace("num_classes=3", "num_classes=4")
    assert findings(fine) == []
    run(fine)


def test_config_object_with_a_vocab_size_attribute(torch):
    code = """
    import torch
    import torch.nn as nn
    from types import SimpleNamespace


    class Vocab:
        def __init__(self, tokens):
            self.stoi = {t: i for i, t in enumerate(tokens)}

        def add_tokens(self, tokens):
            for t in tokens:
                self.stoi.setdefault(t, len(self.stoi))

        def __call__(self, tokens):
            return torch.tensor([[self.stoi[t] for t in tokens]])


    class Tagger(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.embed = nn.Embedding(config.vocab_size, config.hidden)
            self.out = nn.Linear(config.hidden, 3)

        def forward(self, ids):
            return self.out(self.embed(ids))


    if __name__ == "__main__":
        vocab = Vocab(["<pad>", "x", "y", "z"])
        config = SimpleNamespace(vocab_size=4, hidden=8)
        vocab.add_tokens(["<num>"])
        model = Tagger(config)
        out = model(vocab(["x", "<num>"]))
    """
    assert findings(code) == [(line_of(code, "self.out(self.embed(ids))"), "GL011"),
                              (line_of(code, "model = Tagger(config)"), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)
    fixed = code.replace("config = SimpleNamespace(vocab_size=4", "config = SimpleNamespace(vocab_size=5")
    assert findings(fixed) == []
    run(fixed)


PLAIN_VOCAB = """
import torch
import torch.nn as nn


def main():
    words = "the cat sat on the mat".split()
    stoi = {w: i for i, w in enumerate(sorted(set(words)))}
    emb = nn.Embedding(len(stoi), 4)
    GROWTH
    ids = torch.tensor([stoi.get(w, stoi["<unk>"]) for w in "the dog sat".split()])
    return emb(ids)


if __name__ == "__main__":
    main()
"""


def test_unknown_word_entry_added_after_the_embedding_was_sized(torch):
    code = PLAIN_VOCAB.replace("GROWTH", 'stoi["<unk>"] = len(stoi)')
    assert findings(code) == [(line_of(code, 'stoi["<unk>"] = len(stoi)'), "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code)


def test_entry_added_but_never_read_or_added_first_is_silent(torch):
    unread = PLAIN_VOCAB.replace("GROWTH", 'stoi["<unk>"] = len(stoi)').replace(
        'torch.tensor([stoi.get(w, stoi["<unk>"]) for w in "the dog sat".split()])', "torch.tensor([0, 1, 2])")
    assert findings(unread) == []
    run(unread)
    first = PLAIN_VOCAB.replace("GROWTH", "").replace(
        "    emb = nn.Embedding(len(stoi), 4)", '    stoi["<unk>"] = len(stoi)\n    emb = nn.Embedding(len(stoi), 4)')
    assert findings(first) == []
    run(first)


# ----- ignore_index skips targets (a false positive on fixed.py of case 214 after merging) --------

IGNORED_TARGETS = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Seg(nn.Module):
    def __init__(self, ignore=255):
        super().__init__()
        self.head = nn.Conv2d(3, 2, 1)
        self.ignore = ignore
        self.loss = nn.CrossEntropyLoss(ignore_index=255)

    def forward(self, images, labels):
        logits = self.head(images)
        a = self.loss(logits, labels)
        b = F.cross_entropy(logits, labels, ignore_index=self.ignore)
        c = F.cross_entropy(logits, labels, None, None, 255)
        return a + b + c


if __name__ == "__main__":
    images = torch.randn(2, 3, 4, 4)
    labels = torch.randint(0, 2, (2, 4, 4))
    labels[0, 0, 0] = 255
    labels[1, 2, 3] = 255
    loss = Seg()(images, labels)
"""


def test_targets_equal_to_ignore_index_are_not_out_of_range():
    assert torch_runs(IGNORED_TARGETS)
    assert findings(IGNORED_TARGETS) == []


def torch_runs(code: str) -> bool:
    return bool(run(code)["loss"].isfinite())


# ----- ids known one by one through arange, repeat_interleave and unique ---------------------------------------

UNIQUE_COUNT = """
import torch
import torch.nn as nn

def main():
    users = torch.arange(1, 31).repeat_interleave(4)   # ids 1..30, four ratings each
    n_users = users.unique().numel()                   # 30 distinct ids: rows 0..29
    table = nn.Embedding(n_users, 8)
    return table(users)

if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("spelling", [
    "users.unique().numel()", "len(users.unique())", "torch.unique(users).size(0)", "users.unique().shape[0]",
])
def test_a_count_of_distinct_one_based_ids_is_one_row_short(torch, spelling):
    """1-based ids 1..30 have 30 distinct values: a table of that many rows has no row 30."""
    code = UNIQUE_COUNT.replace("users.unique().numel()", spelling)
    assert findings(code) == [(line_of(code, "return table(users)"), "GL011")]
    [message] = [f.message for f in lint(code)]
    assert "up to 30" in message and "30 rows" in message
    with pytest.raises(IndexError, match="index out of range in self"):
        run(code.replace('if __name__ == "__main__":\n    main()', ""))["main"]()


def test_zero_based_ids_and_their_distinct_count_fit(torch):
    code = UNIQUE_COUNT.replace("torch.arange(1, 31)", "torch.arange(30)")
    assert findings(code) == []
    run(code.replace('if __name__ == "__main__":\n    main()', ""))["main"]()


def test_ids_one_hot_by_their_distinct_count(torch):
    code = """
    import torch
    import torch.nn.functional as F

    def main():
        labels = torch.arange(1, 5).repeat(3)   # classes 1..4
        return F.one_hot(labels, labels.unique().numel())

    if __name__ == "__main__":
        main()
    """
    assert findings(code) == [(line_of(code, "F.one_hot"), "GL011")]
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        run(code.replace('if __name__ == "__main__":\n        main()', ""))["main"]()


# A tensor's true division is a float whatever its operands' dtypes: ids of unknown dtype halved for a lookup.
HALVED_STEPS = """
import json

import torch
import torch.nn as nn


class StepTable(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.table = nn.Embedding(n, d)

    def forward(self, steps):
        '''steps (Tensor): (B,) step counters.'''
        return self.table(HALVED)


if __name__ == "__main__":
    RESULT = StepTable(10, 4)(torch.as_tensor(json.loads("[2, 4, 8]")))
"""


def test_ids_of_unknown_dtype_divided_are_floats_to_a_lookup(torch):
    program = HALVED_STEPS.replace("HALVED", "steps / 2")
    assert [(f.code, f.line) for f in lint(program)] == [("GL008", 15)]
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        run_program(program)
    fixed = HALVED_STEPS.replace("HALVED", "steps // 2")
    assert lint(fixed) == []
    assert run_program(fixed).shape == (3, 4)
