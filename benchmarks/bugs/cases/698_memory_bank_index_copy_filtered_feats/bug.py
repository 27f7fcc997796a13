import torch
import torch.nn as nn
import torch.nn.functional as F


class InstanceMemory(nn.Module):
    def __init__(self, num_items, dim):
        super().__init__()
        self.register_buffer("bank", F.normalize(torch.randn(num_items, dim), dim=1))

    @torch.no_grad()
    def write(self, item_ids, feats):
        self.bank.index_copy_(0, item_ids, feats.detach())


def train_step(encoder, memory, images, item_ids, valid):
    feats = F.normalize(encoder(images[valid]), dim=1)
    logits = feats @ memory.bank.t()
    loss = F.cross_entropy(logits / 0.1, item_ids[valid])
    memory.write(item_ids, feats)
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Linear(32, 16)
    memory = InstanceMemory(num_items=100, dim=16)
    images = torch.randn(8, 32)
    item_ids = torch.tensor([3, 17, 42, 8, 99, 60, 21, 5])
    valid = torch.tensor([True, True, False, True, True, True, False, True])
    print(train_step(encoder, memory, images, item_ids, valid))
