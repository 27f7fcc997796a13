import torch


def remove_small_boxes(boxes, scores, min_size):
    # boxes:  [N, 4] (x1, y1, x2, y2) proposals of one image
    # scores: [N]    objectness of each proposal
    ws = boxes[:, 2] - boxes[:, 0]  # [N]
    hs = boxes[:, 3] - boxes[:, 1]  # [N]
    keep = (ws >= min_size).long() * (hs >= min_size).long()  # [N], 1 = keep
    num_kept = int(keep.sum())
    boxes = boxes[keep]    # [num_kept, 4]
    scores = scores[keep]  # [num_kept]
    return boxes, scores, num_kept


def select_top_proposals(boxes_per_image, scores_per_image, min_size, top_n):
    # boxes_per_image:  list of [N_i, 4]
    # scores_per_image: list of [N_i]
    results = []
    for boxes, scores in zip(boxes_per_image, scores_per_image):
        boxes, scores, _ = remove_small_boxes(boxes, scores, min_size)
        order = scores.argsort(descending=True)[:top_n]  # [<= top_n]
        results.append((boxes[order], scores[order]))
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    xy = torch.rand(6, 2) * 50
    wh = torch.tensor([[20.0, 30.0], [1.0, 40.0], [25.0, 2.0], [18.0, 18.0], [0.5, 0.5], [30.0, 12.0]])
    boxes = torch.cat([xy, xy + wh], dim=1)  # [6, 4]
    scores = torch.rand(6)                   # [6]
    out = select_top_proposals([boxes], [scores], min_size=4.0, top_n=3)
    kept_boxes, kept_scores = out[0]
    print("kept boxes:\n", kept_boxes)
    print("kept scores:", kept_scores)
