import torch


def point_form(boxes):
    return torch.cat((boxes[:, :2] - boxes[:, 2:] / 2, boxes[:, :2] + boxes[:, 2:] / 2), 1)


def center_size(boxes):
    return torch.cat(((boxes[:, 2:] + boxes[:, :2]) / 2, boxes[:, 2:] - boxes[:, :2]), 1)


def jaccard(box_a, box_b):
    # box_a: [A, 4], box_b: [B, 4] in point form -> [A, B]
    max_xy = torch.min(box_a[:, None, 2:], box_b[None, :, 2:])
    min_xy = torch.max(box_a[:, None, :2], box_b[None, :, :2])
    inter = (max_xy - min_xy).clamp(min=0).prod(dim=2)
    area_a = ((box_a[:, 2] - box_a[:, 0]) * (box_a[:, 3] - box_a[:, 1]))[:, None]
    area_b = ((box_b[:, 2] - box_b[:, 0]) * (box_b[:, 3] - box_b[:, 1]))[None, :]
    return inter / (area_a + area_b - inter)


def encode(matched, priors, variances):
    # matched: [num_priors, 4] point form, priors: [num_priors, 4] center form
    g_cxcy = (matched[:, :2] + matched[:, 2:]) / 2 - priors[:, :2]
    g_cxcy /= variances[0] * priors[:, 2:]
    g_wh = (matched[:, 2:] - matched[:, :2]) / priors[:, 2:]
    g_wh = torch.log(g_wh) / variances[1]
    return torch.cat([g_cxcy, g_wh], 1)  # [num_priors, 4]


def match(threshold, truths, priors, variances, labels, loc_t, conf_t, idx):
    overlaps = jaccard(truths, point_form(priors))  # [num_objects, num_priors]
    # best prior for each ground truth
    best_prior_overlap, best_prior_idx = overlaps.max(1)  # [num_objects]
    # best ground truth for each prior
    best_truth_overlap, best_truth_idx = overlaps.max(0)  # [num_priors]
    best_truth_overlap.index_fill_(0, best_prior_idx, 2)  # ensure best prior
    # ensure every gt matches with its prior of max overlap
    for j in range(best_prior_idx.size(0)):
        best_truth_idx[best_prior_idx[j]] = j
    matches = truths[best_truth_idx]  # [num_priors, 4]
    conf = labels[best_truth_idx] + 1  # [num_priors]
    conf[best_truth_overlap < threshold] = 0  # background
    loc_t[idx] = encode(matches, priors, variances)
    conf_t[idx] = conf
    return best_truth_idx


if __name__ == "__main__":
    priors = center_size(torch.tensor([
        [0.10, 0.10, 0.50, 0.50],
        [0.55, 0.55, 0.95, 0.95],
        [0.05, 0.05, 0.35, 0.35],
        [0.60, 0.10, 0.90, 0.40],
    ]))
    truths = torch.tensor([
        [0.12, 0.12, 0.45, 0.45],
        [0.10, 0.10, 0.52, 0.50],
        [0.58, 0.55, 0.95, 0.93],
    ])
    labels = torch.tensor([4, 7, 2])
    loc_t = torch.zeros(1, priors.size(0), 4)
    conf_t = torch.zeros(1, priors.size(0), dtype=torch.long)
    best_truth_idx = match(0.5, truths, priors, [0.1, 0.2], labels, loc_t, conf_t, 0)
    positive = conf_t[0] > 0
    print("ground truths with a positive prior:", sorted(set(best_truth_idx[positive].tolist())))
