import torch
from jaxtyping import Float, Int
from torch import Tensor


def split_sizes_per_image(image_ids: Int[Tensor, "n"], num_images: int) -> list[int]:
    return torch.bincount(image_ids, minlength=num_images).tolist()


def select_top_proposals(
    boxes: Float[Tensor, "n 4"],
    objectness: Float[Tensor, "n"],
    image_ids: Int[Tensor, "n"],
    num_images: int,
    post_nms_top_n: int,
) -> list[Float[Tensor, "k 4"]]:
    """Keep the post_nms_top_n best proposals over the whole batch, then split them per image."""
    k = min(post_nms_top_n, objectness.numel())
    _, top_idx = objectness.topk(k, sorted=True)
    keep = torch.zeros_like(image_ids)
    keep[top_idx] = 1
    kept = []
    for img, (img_boxes, img_keep) in enumerate(
        zip(boxes.split(split_sizes_per_image(image_ids, num_images)),
            keep.split(split_sizes_per_image(image_ids, num_images)))
    ):
        kept.append(img_boxes[img_keep])
    return kept


if __name__ == "__main__":
    torch.manual_seed(0)
    image_ids = torch.tensor([0] * 6 + [1] * 5)
    boxes = torch.rand(11, 4) * 100
    objectness = torch.rand(11)
    per_image = select_top_proposals(boxes, objectness, image_ids, num_images=2, post_nms_top_n=5)
    for img, b in enumerate(per_image):
        print(f"image {img}: kept {b.shape[0]} boxes")
        print(b)
