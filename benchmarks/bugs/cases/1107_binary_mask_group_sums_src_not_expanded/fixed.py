import torch


def split_sums(values, masks):
    out = torch.zeros(2, masks.size(1), dtype=values.dtype)
    out.scatter_add_(0, masks, values.unsqueeze(1).expand_as(masks))
    return out[0], out[1]


def masked_group_means(values, masks):
    outside, inside = split_sums(values, masks)
    n_in = masks.sum(dim=0).clamp_min(1)
    n_out = (1 - masks).sum(dim=0).clamp_min(1)
    return inside / n_in, outside / n_out


if __name__ == "__main__":
    torch.manual_seed(0)
    scores = torch.randn(6)
    attribute_masks = torch.randint(0, 2, (6, 3))
    mean_in, mean_out = masked_group_means(scores, attribute_masks)
    for g in range(3):
        ins = [float(scores[n]) for n in range(6) if attribute_masks[n, g] == 1]
        outs = [float(scores[n]) for n in range(6) if attribute_masks[n, g] == 0]
        assert abs(float(mean_in[g]) - (sum(ins) / max(len(ins), 1))) < 1e-6
        assert abs(float(mean_out[g]) - (sum(outs) / max(len(outs), 1))) < 1e-6
    print("ok")
