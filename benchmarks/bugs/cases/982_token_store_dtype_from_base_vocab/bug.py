import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ToyTokenizer:
    def __init__(self, base_vocab, added):
        self.vocab_size = base_vocab
        self.added_tokens = {tok: base_vocab + i for i, tok in enumerate(added)}

    def __len__(self):
        return self.vocab_size + len(self.added_tokens)


def pick_token_dtype(vocab_size):
    for dt in (np.uint8, np.uint16, np.uint32):
        if vocab_size <= np.iinfo(dt).max + 1:
            return dt
    return np.uint64


class PackedChatDataset(Dataset):
    def __init__(self, conversations, tokenizer):
        dtype = pick_token_dtype(tokenizer.vocab_size)
        self.rows = [np.asarray(c, dtype=np.int64).astype(dtype) for c in conversations]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def collate(rows):
    return torch.from_numpy(np.stack(rows).astype(np.int64))


class TinyLM(nn.Module):
    def __init__(self, n_tokens, dim):
        super().__init__()
        self.tok_emb = nn.Embedding(n_tokens, dim)

    def forward(self, input_ids):
        return self.tok_emb(input_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    tok = ToyTokenizer(base_vocab=65_536, added=["<|im_start|>", "<|im_end|>", "<|pad|>", "<|tool|>", "<|sep|>", "<|eot|>", "<|user|>", "<|bot|>"])
    start, end = tok.added_tokens["<|im_start|>"], tok.added_tokens["<|im_end|>"]
    convs = [[start, 17, 923, 40_001, end], [start, 5, 65_000, 12, end]]
    loader = DataLoader(PackedChatDataset(convs, tok), batch_size=2, collate_fn=collate)
    model = TinyLM(len(tok), 8)
    batch = next(iter(loader))
    hidden = model(batch)
    print("ids fed to the model:", batch.tolist())
    print("first position embeds <|im_start|>?",
          torch.equal(hidden[0, 0], model.tok_emb.weight[start]))
