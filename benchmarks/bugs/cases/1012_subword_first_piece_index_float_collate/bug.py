import numpy as np
import torch
import torch.nn as nn


class NERDataset(torch.utils.data.Dataset):
    def __init__(self, sentences, tokenize):
        self.items = []
        for words in sentences:
            pieces, first_piece = [], []
            for w in words:
                first_piece.append(len(pieces))
                pieces.extend(tokenize(w))
            self.items.append({"input_ids": pieces, "orig_to_tok_index": first_piece})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate_fn(batch):
    max_pieces = max(len(b["input_ids"]) for b in batch)
    max_words = max(len(b["orig_to_tok_index"]) for b in batch)
    input_ids = np.zeros((len(batch), max_pieces), dtype=np.int64)
    orig_to_tok_index = np.zeros((len(batch), max_words))
    word_seq_len = []
    for i, b in enumerate(batch):
        input_ids[i, : len(b["input_ids"])] = b["input_ids"]
        orig_to_tok_index[i, : len(b["orig_to_tok_index"])] = b["orig_to_tok_index"]
        word_seq_len.append(len(b["orig_to_tok_index"]))
    return {
        "input_ids": torch.from_numpy(input_ids),
        "orig_to_tok_index": torch.from_numpy(orig_to_tok_index),
        "word_seq_len": torch.tensor(word_seq_len),
    }


class TransformersEmbedder(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.mix = nn.Linear(hidden, hidden)

    def forward(self, input_ids, orig_to_tok_index):
        subword_rep = torch.tanh(self.mix(self.embed(input_ids)))
        batch_size, _, rep_size = subword_rep.size()
        max_sent_len = orig_to_tok_index.size(1)
        word_rep = torch.gather(
            subword_rep, 1, orig_to_tok_index.unsqueeze(-1).expand(batch_size, max_sent_len, rep_size)
        )
        return word_rep


def run(config):
    tokenize = lambda w: [sum(map(ord, w[:k])) % config["vocab"] for k in range(1, min(len(w), 3) + 1)]
    ds = NERDataset(config["sentences"], tokenize)
    loader = torch.utils.data.DataLoader(ds, batch_size=config["batch_size"], collate_fn=collate_fn)
    model = TransformersEmbedder(config["vocab"], config["hidden"])
    for batch in loader:
        reps = model(batch["input_ids"], batch["orig_to_tok_index"])
        print("word reps:", tuple(reps.shape))


if __name__ == "__main__":
    torch.manual_seed(0)
    run({
        "vocab": 50, "hidden": 16, "batch_size": 2,
        "sentences": [["EU", "rejects", "German", "call"], ["Peter", "Blackburn"], ["BRUSSELS", "1996-08-22", "x"]],
    })
