import torch
import torch.nn as nn


class VerbalizerScorer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(cfg["input_dim"], cfg["hidden"]), nn.GELU())
        self.verbalizers = nn.Linear(cfg["hidden"], cfg["num_classes"])

    def forward(self, features):
        return torch.log_softmax(self.verbalizers(self.encoder(features)), dim=-1)


def decoupled_label_loss(logits, labels, loss_mask=None):
    batch_size, num_classes = logits.size()[:2]
    label_mask = torch.ones(batch_size, num_classes, device=logits.device)
    label_mask.scatter_(1, labels.unsqueeze(1), -1.0)
    if loss_mask is not None:
        label_mask = label_mask * loss_mask
    loss = logits.float() * label_mask
    return loss.sum() / batch_size


def finetune_step(model, batch, cfg):
    logits = model(batch["features"])
    if cfg["adapet"]:
        return decoupled_label_loss(logits, batch["label"], batch.get("loss_mask"))
    return nn.functional.nll_loss(logits, batch["label"])


def make_batch(cfg, generator):
    return {
        "features": torch.randn(cfg["batch_size"], cfg["input_dim"], generator=generator),
        "label": torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=generator),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"input_dim": 10, "hidden": 24, "num_classes": 4, "batch_size": 6, "adapet": True}
    gen = torch.Generator().manual_seed(3)
    model = VerbalizerScorer(cfg)
    batch = make_batch(cfg, gen)
    with torch.no_grad():
        loss = finetune_step(model, batch, cfg)
        logits = model(batch["features"])
        ref = 0.0
        for b in range(cfg["batch_size"]):
            for c in range(cfg["num_classes"]):
                sign = -1.0 if c == int(batch["label"][b]) else 1.0
                ref += sign * float(logits[b, c])
        ref /= cfg["batch_size"]
    assert abs(loss.item() - ref) < 1e-5, (loss.item(), ref)
    print("ok")
