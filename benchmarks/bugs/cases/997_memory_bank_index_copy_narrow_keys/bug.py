from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ContrastConfig:
    in_dim: int = 32
    embed_dim: int = 128
    proj_dim: int = 64
    bank_size: int = 16
    temperature: float = 0.1


class FeatureBank(nn.Module):
    def __init__(self, cfg: ContrastConfig):
        super().__init__()
        self.register_buffer("bank", F.normalize(torch.randn(cfg.bank_size, cfg.embed_dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def enqueue(self, keys):
        """Overwrite the oldest slots of the bank with new keys.

        Args:
            keys (`torch.FloatTensor` of shape `(batch_size, dim)`): L2-normalised key embeddings.
        """
        n = keys.shape[0]
        slots = (self.ptr + torch.arange(n)) % self.bank.shape[0]
        self.bank.index_copy_(0, slots, keys)
        self.ptr.fill_(int(slots[-1] + 1) % self.bank.shape[0])


class KeyEncoder(nn.Module):
    def __init__(self, cfg: ContrastConfig):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(cfg.in_dim, cfg.embed_dim), nn.ReLU())
        self.head = nn.Linear(cfg.embed_dim, cfg.proj_dim)

    def forward(self, x):
        return F.normalize(self.head(self.backbone(x)), dim=1)


def train_step(encoder, bank, x, cfg):
    keys = encoder(x)
    logits = keys @ bank.bank[:, : keys.shape[1]].t() / cfg.temperature
    loss = torch.logsumexp(logits, dim=1).mean()
    bank.enqueue(keys)
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = ContrastConfig()
    encoder, bank = KeyEncoder(cfg), FeatureBank(cfg)
    for step in range(3):
        loss = train_step(encoder, bank, torch.randn(6, cfg.in_dim), cfg)
        print("step", step, "loss", loss.item(), "ptr", int(bank.ptr))
