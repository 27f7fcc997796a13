import torch
import torch.nn as nn


class ToyTokenizer:
    def __init__(self, words):
        self.vocab = {w: i for i, w in enumerate(words)}

    def add_special_tokens(self, tokens):
        for name, tok in tokens.items():
            self.vocab.setdefault(tok, len(self.vocab))
            setattr(self, f"{name}_id", self.vocab[tok])

    def encode(self, text):
        return [self.vocab[w] for w in text.split()]

    def __len__(self):
        return len(self.vocab)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def resize_token_embeddings(self, new_size):
        old_e, old_h = self.embed, self.lm_head
        self.embed = nn.Embedding(new_size, old_e.embedding_dim)
        self.lm_head = nn.Linear(old_h.in_features, new_size)
        with torch.no_grad():
            self.embed.weight[: old_e.num_embeddings] = old_e.weight
            self.lm_head.weight[: old_h.out_features] = old_h.weight
            self.lm_head.bias[: old_h.out_features] = old_h.bias

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed(input_ids).cumsum(dim=1)))


def gather_logits_labels(logits, labels):
    """Log-probability of every label token.

    Args:
        logits: (batch, seq_len, vocab_size) next-token logits.
        labels: (batch, seq_len) target token ids, -100 on prompt positions.
    """
    mask = labels != -100
    safe_labels = labels.masked_fill(~mask, 0)
    logp = logits.log_softmax(dim=-1).gather(dim=-1, index=safe_labels.unsqueeze(-1)).squeeze(-1)
    return logp * mask


def response_scores(model, input_ids, labels):
    """Length-normalised response log-likelihood used as the RRHF ranking score.

    Args:
        input_ids: (batch, seq_len) query + response + eos.
        labels: (batch, seq_len) same ids with the query masked to -100.
    """
    logits = model(input_ids[:, :-1])
    logp = gather_logits_labels(logits, labels[:, 1:])
    return logp.sum(-1) / (labels[:, 1:] != -100).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    words = [f"w{i}" for i in range(40)]
    tokenizer = ToyTokenizer(words)
    model = TinyCausalLM(vocab_size=len(tokenizer), hidden=16)
    tokenizer.add_special_tokens({"eos_token": "</s>"})

    query = tokenizer.encode("w1 w7 w3")
    responses = ["w5 w9 w2 w8", "w5 w6 w6 w4"]
    rows = [query + tokenizer.encode(r) + [tokenizer.eos_token_id] for r in responses]
    input_ids = torch.tensor(rows)
    labels = input_ids.clone()
    labels[:, : len(query)] = -100

    scores = response_scores(model, input_ids, labels)

    logits = model(input_ids[:, :-1]).log_softmax(-1)
    for b in range(len(rows)):
        tot, n = 0.0, 0
        for t in range(len(query) - 1, input_ids.size(1) - 1):
            tot += logits[b, t, input_ids[b, t + 1]].item()
            n += 1
        print("response", b, "score", round(scores[b].item(), 5), "reference", round(tot / n, 5))
