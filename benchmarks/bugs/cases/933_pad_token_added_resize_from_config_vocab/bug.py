from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelConfig:
    vocab_size: int = 100
    hidden_size: int = 16


class WordTokenizer:
    def __init__(self, words):
        self.vocab = {w: i for i, w in enumerate(words)}
        self.pad_token_id = None

    def __len__(self):
        return len(self.vocab)

    def add_pad_token(self, token="[PAD]"):
        self.vocab[token] = len(self.vocab)
        self.pad_token_id = self.vocab[token]

    def encode(self, text):
        return [self.vocab[w] for w in text.split()]


class TinyCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def resize_token_embeddings(self, new_num_tokens):
        old = self.embed_tokens.weight.data
        self.embed_tokens = nn.Embedding(new_num_tokens, old.size(1))
        self.embed_tokens.weight.data[: old.size(0)] = old
        self.lm_head = nn.Linear(old.size(1), new_num_tokens, bias=False)
        self.config.vocab_size = new_num_tokens

    def forward(self, input_ids, attention_mask):
        h = self.embed_tokens(input_ids)
        h = h * attention_mask.unsqueeze(-1)
        return self.lm_head(h)


def collate(batch, pad_id):
    width = max(len(x) for x in batch)
    ids = [x + [pad_id] * (width - len(x)) for x in batch]
    mask = [[1] * len(x) + [0] * (width - len(x)) for x in batch]
    return torch.tensor(ids), torch.tensor(mask, dtype=torch.float)


def setup(config):
    # the checkpoint's tokenizer ships one more entry than config.vocab_size (a legacy <unk2>)
    words = [f"w{i}" for i in range(config.vocab_size)] + ["<unk2>"]
    tokenizer = WordTokenizer(words)
    model = TinyCausalLM(config)
    if tokenizer.pad_token_id is None:
        tokenizer.add_pad_token("[PAD]")
        model.resize_token_embeddings(model.config.vocab_size + 1)
    return tokenizer, model


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer, model = setup(ModelConfig())
    texts = ["w1 w5 w7 w99", "w3 w4", "w10 w11 w12"]
    input_ids, attention_mask = collate([tokenizer.encode(t) for t in texts], tokenizer.pad_token_id)
    logits = model(input_ids, attention_mask)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), input_ids[:, 1:].reshape(-1))
    print("loss", loss.item())
