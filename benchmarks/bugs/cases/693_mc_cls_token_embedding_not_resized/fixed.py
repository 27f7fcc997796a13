import torch
import torch.nn as nn


class WordTokenizer:
    def __init__(self, words):
        self.vocab = {w: i for i, w in enumerate(words)}

    def add_special_tokens(self, tokens):
        for t in tokens:
            self.vocab.setdefault(t, len(self.vocab))

    def encode(self, text):
        return [self.vocab[w] for w in text.split()]

    def __len__(self):
        return len(self.vocab)


class DoubleHeadsLM(nn.Module):
    def __init__(self, vocab_size, n_embd):
        super().__init__()
        self.tokens_embed = nn.Embedding(vocab_size, n_embd)
        self.block = nn.Linear(n_embd, n_embd)
        self.mc_head = nn.Linear(n_embd, 1)

    def forward(self, input_ids, mc_token_ids):
        h = torch.tanh(self.block(self.tokens_embed(input_ids)))
        idx = mc_token_ids.unsqueeze(-1).unsqueeze(-1).expand(-1, -1, 1, h.size(-1))
        cls_h = h.gather(2, idx).squeeze(2)
        return self.mc_head(cls_h).squeeze(-1)


def build(words):
    tok = WordTokenizer(words)
    tok.add_special_tokens(["[CLS]"])
    model = DoubleHeadsLM(vocab_size=len(tok), n_embd=16)
    return tok, model


if __name__ == "__main__":
    torch.manual_seed(0)
    words = "hello my dog cat is cute".split()
    tok, model = build(words)
    choices = ["hello my dog is cute [CLS]", "hello my cat is cute [CLS]"]
    input_ids = torch.tensor([[tok.encode(c) for c in choices]])
    mc_token_ids = torch.tensor([[input_ids.size(-1) - 1] * 2])
    scores = model(input_ids, mc_token_ids)
    with torch.no_grad():
        for c in range(2):
            pos = mc_token_ids[0, c].item()
            tok_id = input_ids[0, c, pos].item()
            e = model.tokens_embed.weight[tok_id]
            h = torch.tanh(model.block(e))
            ref = model.mc_head(h).item()
            assert abs(scores[0, c].item() - ref) < 1e-5
    print("ok")
