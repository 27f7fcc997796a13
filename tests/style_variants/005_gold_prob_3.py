import torch
import torch.nn.functional as F


def gold_confidence(logits, labels):
    probs = F.softmax(logits, dim=-1)
    return probs.gather(1, labels.unsqueeze(0)).squeeze(0)  # expect: GL005


def score_batch(batch):
    return gold_confidence(batch["logits"], batch["labels"])


if __name__ == "__main__":
    batch = {"logits": torch.randn(8, 5), "labels": torch.randint(0, 5, (8,))}
    conf = score_batch(batch)
    probs = F.softmax(batch["logits"], dim=-1)
    ref = torch.stack([probs[i, batch["labels"][i]] for i in range(8)])
    assert conf.shape != ref.shape or not torch.allclose(conf, ref)
