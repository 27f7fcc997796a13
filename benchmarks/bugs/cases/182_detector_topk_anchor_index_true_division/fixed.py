import torch
from jaxtyping import Float, Int
from torch import Tensor


def post_process(
    class_out: Float[Tensor, "batch anchors classes"],
    box_out: Float[Tensor, "batch anchors 4"],
    num_classes: int,
    max_detection_points: int = 20,
) -> tuple[Float[Tensor, "batch k classes"], Float[Tensor, "batch k 4"], Int[Tensor, "batch k"], Int[Tensor, "batch k"]]:
    batch_size = class_out.shape[0]
    _, cls_topk_indices_all = torch.topk(class_out.reshape(batch_size, -1), dim=1, k=max_detection_points)
    indices_all = cls_topk_indices_all // num_classes
    classes_all = cls_topk_indices_all % num_classes
    box_out_topk = torch.gather(box_out, 1, indices_all.unsqueeze(2).expand(-1, -1, 4))
    class_out_topk = torch.gather(class_out, 1, indices_all.unsqueeze(2).expand(-1, -1, num_classes))
    return class_out_topk, box_out_topk, indices_all, classes_all


def decode(
    anchors: Float[Tensor, "anchors 4"], box_topk: Float[Tensor, "batch k 4"], indices: Int[Tensor, "batch k"]
) -> Float[Tensor, "batch k 4"]:
    a = anchors[indices]
    wh = a[..., 2:] - a[..., :2]
    ctr = (a[..., :2] + a[..., 2:]) / 2 + box_topk[..., :2] * wh
    size = wh * box_topk[..., 2:].exp()
    return torch.cat([ctr - size / 2, ctr + size / 2], dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_anchors, num_classes = 64, 5
    class_out = torch.randn(2, num_anchors, num_classes)
    box_out = 0.1 * torch.randn(2, num_anchors, 4)
    xy = torch.rand(num_anchors, 2) * 100
    anchors = torch.cat([xy, xy + 16], dim=1)
    cls_topk, box_topk, indices, classes = post_process(class_out, box_out, num_classes)
    boxes = decode(anchors, box_topk, indices)
    for b in range(2):
        flat = class_out[b].reshape(-1)
        top = flat.topk(20).indices.tolist()
        for j, f in enumerate(top):
            a, c = f // num_classes, f % num_classes
            assert indices[b, j] == a and classes[b, j] == c
            assert torch.equal(box_topk[b, j], box_out[b, a]) and torch.equal(cls_topk[b, j], class_out[b, a])
    assert boxes.shape == (2, 20, 4)
    print("ok")
