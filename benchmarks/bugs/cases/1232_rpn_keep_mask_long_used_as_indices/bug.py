import torch


def select_over_all_levels(scores, boxes, post_nms_top_n):
    """Keep the best proposals of every image after merging the FPN levels.

    Args:
        scores (Tensor): objectness of shape ``(N, A)`` for ``N`` images and ``A`` anchors.
        boxes (Tensor): proposals of shape ``(N, A, 4)`` in (x1, y1, x2, y2).
        post_nms_top_n (int): number of proposals kept per image.

    Returns:
        list[Tensor]: per image, the kept boxes of shape ``(post_nms_top_n, 4)``.
        list[Tensor]: per image, their scores of shape ``(post_nms_top_n,)``.
    """
    num_images = scores.shape[0]
    k = min(post_nms_top_n, scores.shape[1])
    inds_mask = torch.zeros_like(scores, dtype=torch.long)
    _, top_idx = scores.topk(k, dim=1, sorted=True)
    for i in range(num_images):
        inds_mask[i, top_idx[i]] = 1
    kept_boxes, kept_scores = [], []
    for i in range(num_images):
        kept_boxes.append(boxes[i][inds_mask[i]])
        kept_scores.append(scores[i][inds_mask[i]])
    return kept_boxes, kept_scores


def make_proposals(num_images, num_anchors, seed=0):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(num_images, num_anchors, 2, generator=g) * 600
    wh = torch.rand(num_images, num_anchors, 2, generator=g) * 120 + 8
    boxes = torch.cat([xy, xy + wh], dim=-1)
    scores = torch.rand(num_images, num_anchors, generator=g)
    return scores, boxes


if __name__ == "__main__":
    scores, boxes = make_proposals(num_images=2, num_anchors=12)
    kept_boxes, kept_scores = select_over_all_levels(scores, boxes, post_nms_top_n=4)
    for i, (b, s) in enumerate(zip(kept_boxes, kept_scores)):
        print(f"image {i}: kept {tuple(b.shape)} boxes, best score {s.max():.3f} "
              f"(true best {scores[i].max():.3f})")
