import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class StoryClozeDataset(Dataset):
    """Pre-processes stories for LM fine-tuning.

    Each item is a dict with:
        input_ids (LongTensor): shape (seq_len,), the story tokens.
        lm_labels (LongTensor): shape (seq_len,), the story tokens; the model shifts them (-1 is ignored).
    """

    def __init__(self, stories, seq_len):
        self.items = []
        for toks in stories:
            ids = torch.full((seq_len,), 0, dtype=torch.long)
            labels = torch.full((seq_len,), -1, dtype=torch.long)
            ids[: len(toks)] = torch.tensor(toks)
            labels[: len(toks)] = torch.tensor(toks)
            self.items.append({"input_ids": ids, "lm_labels": labels})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class TinyDoubleHeadsLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, lm_labels=None):
        """Returns logits of shape (batch, seq_len, vocab) and, with lm_labels, the LM loss.

        lm_labels (LongTensor, shape (batch, seq_len)): labels are shifted inside the model,
        i.e. you can set lm_labels = input_ids; positions with -1 are ignored.
        """
        h, _ = self.rnn(self.emb(input_ids))
        logits = self.lm_head(h)
        if lm_labels is None:
            return logits
        shift_logp = F.log_softmax(logits[:, :-1], dim=-1)
        shift_labels = lm_labels[:, 1:]
        valid = shift_labels != -1
        token_logp = shift_logp.gather(-1, shift_labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        return logits, -(token_logp * valid).sum() / valid.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    stories = [torch.randint(1, 200, (n,)).tolist() for n in (12, 16, 9, 14)]
    loader = DataLoader(StoryClozeDataset(stories, seq_len=16), batch_size=4)
    model = TinyDoubleHeadsLM(vocab_size=200, dim=32)
    batch = next(iter(loader))
    logits, loss = model(batch["input_ids"], batch["lm_labels"])
    logp = F.log_softmax(logits, dim=-1)
    ref = [-logp[b, t, s[t + 1]] for b, s in enumerate(stories) for t in range(len(s) - 1)]
    assert torch.allclose(loss, torch.stack(ref).mean(), atol=1e-5)
    print("ok")
