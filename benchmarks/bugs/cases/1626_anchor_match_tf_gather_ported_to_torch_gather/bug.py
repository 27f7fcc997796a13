"""Anchor target assignment, ported from the TF object_detection API."""
import torch


def iou_similarity(boxes1, boxes2):
    """Pairwise IoU.

    Args:
        boxes1: float tensor of shape [N, 4] holding (ymin, xmin, ymax, xmax).
        boxes2: float tensor of shape [M, 4].

    Returns:
        a tensor of shape [N, M].
    """
    area1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    area2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt = torch.max(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    return inter / (area1[:, None] + area2[None, :] - inter)


class Match:
    """Result of matching anchors (columns) to groundtruth boxes (rows).

    Args:
        match_results: int64 tensor of shape [num_anchors]. match_results[i] >= 0 is the
            matched row, -1 means unmatched and -2 means ignored.
    """

    def __init__(self, match_results):
        if len(match_results.shape) != 1:
            raise ValueError("match_results should have rank 1")
        self.match_results = match_results

    def gather_based_on_match(self, input_tensor, unmatched_value, ignored_value):
        """Gathers rows of `input_tensor` based on match results.

        For columns that are matched to a row, gathered[col] is input_tensor[match_results[col]].
        Unmatched columns get unmatched_value and ignored columns get ignored_value.

        Args:
            input_tensor: tensor of shape [num_gt] + D to gather from.
            unmatched_value: tensor of shape D.
            ignored_value: tensor of shape D.

        Returns:
            a tensor of shape [num_anchors] + D.
        """
        input_tensor = torch.cat([torch.stack([ignored_value, unmatched_value]), input_tensor], dim=0)
        gather_indices = torch.clamp(self.match_results + 2, min=0)
        gathered = torch.gather(input_tensor, 0, gather_indices)
        return gathered


class ArgMaxMatcher:
    """Matches each anchor to the groundtruth box with the highest IoU.

    Args:
        matched_threshold: IoU at or above which an anchor is positive.
        unmatched_threshold: IoU below which an anchor is negative; in between is ignored.
    """

    def __init__(self, matched_threshold=0.5, unmatched_threshold=0.4):
        self.matched_threshold = matched_threshold
        self.unmatched_threshold = unmatched_threshold

    def match(self, similarity):
        """
        Args:
            similarity: tensor of shape [num_gt, num_anchors].

        Returns:
            a Match object.
        """
        matched_vals, matches = similarity.max(0)
        below = matched_vals < self.unmatched_threshold
        between = (matched_vals >= self.unmatched_threshold) & (matched_vals < self.matched_threshold)
        matches = torch.where(below, torch.full_like(matches, -1), matches)
        matches = torch.where(between, torch.full_like(matches, -2), matches)
        return Match(matches)


class AnchorLabeler:
    """Assigns classification and box targets to a fixed set of anchors.

    Args:
        anchors: float tensor of shape [num_anchors, 4].
        matcher: an ArgMaxMatcher.
    """

    def __init__(self, anchors, matcher):
        self.anchors = anchors
        self.matcher = matcher

    def label_anchors(self, gt_boxes, gt_labels):
        """
        Args:
            gt_boxes: float tensor of shape [num_gt, 4].
            gt_labels: int64 tensor of shape [num_gt].

        Returns:
            cls_targets: [num_anchors] with -1 for background and -2 for ignored anchors.
            box_targets: [num_anchors, 4] matched groundtruth boxes (zeros where unmatched).
        """
        match = self.matcher.match(iou_similarity(gt_boxes, self.anchors))
        cls_targets = match.gather_based_on_match(
            gt_labels, unmatched_value=torch.tensor(-1), ignored_value=torch.tensor(-2)
        )
        zeros = gt_boxes.new_zeros(4)
        box_targets = match.gather_based_on_match(gt_boxes, unmatched_value=zeros, ignored_value=zeros)
        return cls_targets, box_targets, match


def grid_anchors(image_size, stride, size):
    centers = torch.arange(stride / 2, image_size, stride)
    cy, cx = torch.meshgrid(centers, centers, indexing="ij")
    cy, cx = cy.reshape(-1), cx.reshape(-1)
    half = size / 2
    return torch.stack([cy - half, cx - half, cy + half, cx + half], dim=1)


if __name__ == "__main__":
    anchors = grid_anchors(image_size=64, stride=8, size=16.0)
    labeler = AnchorLabeler(anchors, ArgMaxMatcher(0.5, 0.4))
    gt_boxes = torch.tensor([[4.0, 4.0, 20.0, 20.0], [30.0, 38.0, 46.0, 54.0], [40.0, 8.0, 60.0, 26.0]])
    gt_labels = torch.tensor([3, 1, 7])
    cls_targets, box_targets, match = labeler.label_anchors(gt_boxes, gt_labels)
    print("positives:", int((cls_targets >= 0).sum()), "box targets:", tuple(box_targets.shape))
