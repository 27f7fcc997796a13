import torch

CFG = {"vocab": 7, "ignore_index": -1, "label_smoothing": 0.2, "seed": 0}


def pad_collate(batch, pad_id):
    width = max(len(seq) for seq in batch)
    return torch.tensor([seq + [pad_id] * (width - len(seq)) for seq in batch])


def sparse_categorical_crossentropy(logits, targets, ignore_index, label_smoothing):
    log_probs = logits.log_softmax(-1)
    loss_mask = targets != ignore_index
    safe_targets = targets.masked_fill(~loss_mask, 0)
    nll = -log_probs.gather(-1, safe_targets.unsqueeze(-1)).squeeze(-1)
    smooth = -log_probs.mean(-1)
    per_tok = (1 - label_smoothing) * nll * loss_mask + label_smoothing * smooth
    return per_tok.sum() / loss_mask.sum()


def run(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    targets = pad_collate([[1, 4, 2, 6], [3, 0], [5]], pad_id=cfg["ignore_index"])
    logits = torch.randn(*targets.shape, cfg["vocab"], generator=g)
    loss = sparse_categorical_crossentropy(logits, targets, cfg["ignore_index"], cfg["label_smoothing"])
    return logits, targets, loss


if __name__ == "__main__":
    logits, targets, loss = run(CFG)
    print("loss:", loss.item())
