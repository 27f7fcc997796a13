import torch
import torch.nn as nn
import torch.nn.functional as F


class BPETokenizer:
    vocab_size = 49408
    _table = {"a": 320, "photo": 1125, "of": 539, "mental": 3958, "health": 14186, "poster": 22881, "<eot>": 49407}

    def tokenize(self, texts, context_length=8):
        out = torch.zeros(len(texts), context_length, dtype=torch.long)
        for i, t in enumerate(texts):
            ids = [self._table[w] for w in t.split()] + [self._table["<eot>"]]
            out[i, : len(ids)] = torch.tensor(ids)
        return out


class DALLE(nn.Module):
    def __init__(self, dim=32, num_text_tokens=10000, num_image_tokens=512, text_seq_len=8):
        super().__init__()
        self.text_emb = nn.Embedding(num_text_tokens, dim)
        self.text_pos_emb = nn.Embedding(text_seq_len, dim)
        self.image_emb = nn.Embedding(num_image_tokens, dim)
        self.to_logits = nn.Linear(dim, num_image_tokens)

    def forward(self, text, image_codes):
        pos = torch.arange(text.shape[1])
        tokens = self.text_emb(text) + self.text_pos_emb(pos)
        context = tokens.mean(dim=1, keepdim=True)
        h = self.image_emb(image_codes) + context
        return F.cross_entropy(self.to_logits(h).transpose(1, 2), image_codes)


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer = BPETokenizer()
    dalle = DALLE(dim=32, num_image_tokens=512, text_seq_len=8)
    text = tokenizer.tokenize(["a photo of mental health", "a poster"])
    image_codes = torch.randint(0, 512, (2, 16))
    loss = dalle(text, image_codes)
    loss.backward()
    print("loss:", loss.item())
