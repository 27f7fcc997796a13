import torch
import torch.nn.functional as F


def labels_from_annotations(annots):
    # annots: [N, 5] float rows of [x1, y1, x2, y2, label]
    return annots[:, 4].round().long()                        # [N]


def class_counts(labels, num_classes):
    counts = torch.zeros(num_classes)
    counts.index_put_((labels,), torch.ones(labels.numel()), accumulate=True)
    return counts                                             # [C]


def target_scores(logits, labels):
    # logits: [N, C], labels: [N] -> [N]
    rows = torch.arange(logits.size(0))
    return logits[rows, labels]


def last_real_state(enc_seq, tokens, eos_ix):
    # enc_seq: [B, T, H], tokens: [B, T]; state at the EOS token (or the last step)
    is_eos = tokens == eos_ix
    has_eos = is_eos.any(dim=1)
    eos_pos = is_eos.long().argmax(dim=1)
    pos = torch.where(has_eos, eos_pos, torch.full_like(eos_pos, tokens.size(1) - 1))
    return enc_seq[torch.arange(tokens.size(0)), pos]         # [B, H]


if __name__ == "__main__":
    torch.manual_seed(0)
    C = 5
    annots = torch.cat([torch.rand(9, 4), torch.randint(0, C, (9, 1)).float()], dim=1)
    labels = labels_from_annotations(annots)
    one_hot = F.one_hot(labels, C).float()
    counts = class_counts(labels, C)
    logits = torch.randn(9, C)
    picked = target_scores(logits, labels)

    ref_counts = [0.0] * C
    for i in range(9):
        lab = int(annots[i, 4].item())
        ref_counts[lab] += 1
        assert one_hot[i].tolist() == [1.0 if c == lab else 0.0 for c in range(C)]
        assert picked[i].item() == logits[i, lab].item()
    assert counts.tolist() == ref_counts
    assert torch.equal(counts, torch.bincount(labels, minlength=C).float())

    tokens = torch.tensor([[4, 5, 1, 0, 0], [6, 7, 8, 9, 2], [3, 1, 0, 0, 0]])
    enc_seq = torch.randn(3, 5, 6)
    last = last_real_state(enc_seq, tokens, eos_ix=1)
    for b in range(3):
        row = tokens[b].tolist()
        p = row.index(1) if 1 in row else len(row) - 1
        assert torch.equal(last[b], enc_seq[b, p])
    print("ok")
