import torch


class ConfusionMatrix:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.matrix = torch.zeros(num_classes, num_classes, dtype=torch.long)

    def update(self, targets, preds):
        flat = targets * self.num_classes + preds
        self.matrix += torch.bincount(flat, minlength=self.num_classes ** 2).view(self.num_classes, self.num_classes)

    def accuracy(self):
        return (self.matrix.diag().sum() / self.matrix.sum().clamp(min=1)).item()


class FaceVoteTracker:
    """Segmentation tracker for meshes: point logits are summed per mesh face and every
    point is scored with the vote of its face."""

    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.confusion = ConfusionMatrix(num_classes)

    def track(self, outputs, face_ids, targets):
        unique_fids, fids_map = face_ids.unique(dim=0, return_inverse=True)
        res = torch.zeros((unique_fids.shape[0], *(outputs[0].shape)), dtype=outputs.dtype)
        res = res.scatter_add_(0, fids_map.unsqueeze(1).expand_as(outputs), outputs)
        voted = torch.index_select(res, 0, fids_map)
        self.confusion.update(targets, voted.argmax(1))
        return voted


def simulate_mesh_batch(num_points, num_faces, num_classes, seed=0):
    g = torch.Generator().manual_seed(seed)
    face_ids = torch.randint(0, num_faces, (num_points,), generator=g)
    face_label = torch.randint(0, num_classes, (num_faces,), generator=g)
    targets = face_label[face_ids]
    outputs = torch.randn(num_points, num_classes, generator=g) + 1.5 * torch.nn.functional.one_hot(targets, num_classes)
    return outputs, face_ids, targets


if __name__ == "__main__":
    outputs, face_ids, targets = simulate_mesh_batch(600, 80, 5)
    tracker = FaceVoteTracker(5)
    voted = tracker.track(outputs, face_ids, targets)
    ref = torch.zeros(80, 5)
    for p in range(600):
        ref[face_ids[p]] += outputs[p]
    assert torch.allclose(voted, ref[face_ids], atol=1e-4)
    assert tracker.confusion.accuracy() > (outputs.argmax(1) == targets).float().mean().item()
    print("ok", round(tracker.confusion.accuracy(), 3))
