import torch
import torch.nn as nn


class TinyTokenizer:
    """Whitespace tokenizer over a fixed word list; id 1 is <s>."""

    def __init__(self, words):
        self.bos_id = 1
        self.vocab = {w: i + 2 for i, w in enumerate(words)}

    def encode(self, text, add_bos=True):
        ids = [self.vocab[w] for w in text.split()]
        return [self.bos_id] + ids if add_bos else ids


def score_continuation(model, tokenizer, prompt, continuation):
    """Log-likelihood of `continuation` given `prompt` (multiple-choice scoring).

    Args:
        model: causal LM mapping token ids `(1, seq_len)` to logits `(1, seq_len, vocab_size)`.
        tokenizer: object with `encode(text, add_bos)`.
        prompt (str): the context.
        continuation (str): the candidate answer.

    Returns:
        torch.Tensor: `(cont_len,)` log-probabilities of the continuation tokens.
    """
    p_len = len(tokenizer.encode(prompt, add_bos=True))
    cont_ids = torch.tensor([tokenizer.encode(continuation, add_bos=False)])
    input_ids = torch.tensor([tokenizer.encode(prompt, add_bos=True)])
    input_ids = torch.cat([input_ids, cont_ids], dim=1)
    logits = model(input_ids)
    # position t predicts token t + 1: the first continuation token is read at p_len - 1
    ll = logits[:, p_len - 1:-1].log_softmax(-1).gather(-1, cont_ids.unsqueeze(-1)).squeeze(-1)
    return ll[0]


def choose(model, tokenizer, prompt, options):
    """Index of the option with the highest summed log-likelihood, and all scores."""
    scores = [score_continuation(model, tokenizer, prompt, o).sum().item() for o in options]
    return max(range(len(options)), key=scores.__getitem__), scores


class ToyLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, ids):
        out, _ = self.rnn(self.emb(ids))
        return self.head(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    words = "the cat sat on mat dog ran to park a".split()
    tok = TinyTokenizer(words)
    model = ToyLM(len(words) + 2, 16).eval()
    prompt, cont = "the cat sat on", "the mat"
    with torch.no_grad():
        got = score_continuation(model, tok, prompt, cont)
        ids = tok.encode(prompt) + tok.encode(cont, add_bos=False)
        lp = model(torch.tensor([ids]))[0].log_softmax(-1)
        start = len(tok.encode(prompt))
        ref = [lp[t - 1, ids[t]].item() for t in range(start, len(ids))]
    assert torch.allclose(got, torch.tensor(ref), atol=1e-5)
    best, scores = choose(model, tok, prompt, ["the mat", "a park", "dog"])
    assert len(scores) == 3
    print("ok")
