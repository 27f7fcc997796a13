from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class GRPOConfig:
    vocab_size: int = 40
    hidden: int = 16
    max_completion_length: int = 8
    pad_id: int = 0


class RolloutDataset(Dataset):
    def __init__(self, cfg, n=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            prompt = torch.randint(1, cfg.vocab_size, (5,), generator=g)
            length = int(torch.randint(3, 7, (1,), generator=g))
            completion = torch.randint(1, cfg.vocab_size, (length,), generator=g)
            self.items.append((prompt, completion))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def make_collate(cfg):
    def collate(items):
        prompts = torch.stack([p for p, _ in items])
        completions = torch.full((len(items), cfg.max_completion_length), cfg.pad_id)
        for row, (_, c) in enumerate(items):
            completions[row, : len(c)] = c
        return {"prompt_ids": prompts, "completion_ids": completions,
                "completion_mask": (completions != cfg.pad_id).long()}
    return collate


class TinyPolicy(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.hidden)
        self.rnn = nn.GRU(cfg.hidden, cfg.hidden, batch_first=True)
        self.head = nn.Linear(cfg.hidden, cfg.vocab_size)

    def forward(self, input_ids, logits_to_keep=0):
        hidden, _ = self.rnn(self.embed(input_ids))
        return self.head(hidden[:, -logits_to_keep:])


def per_token_logps(model, batch):
    input_ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], dim=1)
    logits_to_keep = batch["completion_ids"].size(1)
    logits = model(input_ids, logits_to_keep=logits_to_keep + 1)[:, :-1]
    index = input_ids[:, -batch["completion_ids"].size(1):]
    logps = logits.log_softmax(-1).gather(-1, index.unsqueeze(-1)).squeeze(-1)
    return logps * batch["completion_mask"]


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = GRPOConfig()
    loader = DataLoader(RolloutDataset(cfg), batch_size=2, collate_fn=make_collate(cfg))
    policy = TinyPolicy(cfg)
    with torch.no_grad():
        for batch in loader:
            logps = per_token_logps(policy, batch)
            ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], dim=1)
            p = batch["prompt_ids"].size(1)
            for b in range(ids.size(0)):
                for j in range(cfg.max_completion_length):
                    if batch["completion_mask"][b, j] == 0:
                        assert logps[b, j] == 0
                        continue
                    last = policy(ids[b : b + 1, : p + j], logits_to_keep=1)[0, -1]
                    ref = last.log_softmax(-1)[ids[b, p + j]].item()
                    assert abs(logps[b, j].item() - ref) < 1e-5
    print("ok")
