"""Correct look-alikes: placeholder-token feature merge, duplicate-safe counting, per-class sums."""
import torch

IMAGE_TOKEN = 50


def merge_image_features(input_ids, token_embeds, image_features):
    # input_ids: (L,), token_embeds: (L, D), image_features: (N, D) with N == #image tokens
    mask = input_ids == IMAGE_TOKEN
    n_tokens = int(mask.sum())
    if n_tokens != image_features.size(0):
        raise ValueError(f"{n_tokens} image tokens but {image_features.size(0)} features")
    out = token_embeds.clone()
    out[mask] = image_features
    return out


def confusion_counts(target, pred, num_classes):
    flat = target * num_classes + pred                                   # (N,)
    return torch.bincount(flat, minlength=num_classes ** 2).view(num_classes, num_classes)


def per_class_feature_sums(feats, labels, num_classes):
    # feats: (N, D), labels: (N,) -> (C, D); index_add_ accumulates repeated labels
    sums = torch.zeros(num_classes, feats.size(1))
    sums.index_add_(0, labels, feats)
    return sums


if __name__ == "__main__":
    torch.manual_seed(0)
    ids = torch.tensor([1, IMAGE_TOKEN, IMAGE_TOKEN, IMAGE_TOKEN, 7, 8])
    emb = torch.randn(6, 4)
    img = torch.randn(3, 4)
    merged = merge_image_features(ids, emb, img)
    k = 0
    for i, t in enumerate(ids.tolist()):
        if t == IMAGE_TOKEN:
            assert torch.equal(merged[i], img[k])
            k += 1
        else:
            assert torch.equal(merged[i], emb[i])

    target = torch.tensor([0, 0, 1, 2, 2, 2, 1])
    pred = torch.tensor([0, 0, 1, 2, 1, 2, 1])
    cm = confusion_counts(target, pred, 3)
    ref = torch.zeros(3, 3, dtype=torch.long)
    for t, p in zip(target.tolist(), pred.tolist()):
        ref[t, p] += 1
    assert torch.equal(cm, ref)

    feats = torch.randn(7, 5)
    sums = per_class_feature_sums(feats, target, 3)
    for c in range(3):
        ref_c = torch.zeros(5)
        for i in range(7):
            if target[i] == c:
                ref_c += feats[i]
        assert torch.allclose(sums[c], ref_c, atol=1e-6)

    scores = torch.randn(4, 6)
    top = scores.topk(2, dim=-1).indices                                 # (4, 2)
    picked = torch.take_along_dim(scores, top, dim=-1)
    for r in range(4):
        for j in range(2):
            assert picked[r, j] == scores[r, top[r, j]]
    print("ok")
