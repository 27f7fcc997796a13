import torch


class PERSequenceBuffer:
    """Prioritized replay over fixed-length chunks with an overlapping burn-in prefix."""

    def __init__(self, size, sequence_length, overlap_length, alpha=0.6, eps=1e-6):
        self.size = size
        self.sequence_length = sequence_length                      # steps stored per chunk
        self.overlap_length = overlap_length                        # burn-in shared with previous chunk
        self.non_overlap_length = sequence_length - overlap_length
        self.alpha = alpha
        self.eps = eps
        self.priorities = torch.ones(size)                          # (size,) one priority per step

    def chunk_step_indices(self, starts):
        # starts: (B,) first step of each sampled chunk -> idxs: (B, L)
        offsets = torch.arange(self.non_overlap_length + self.overlap_length)
        return (starts.unsqueeze(1) + offsets.unsqueeze(0)) % self.size

    def update_priorities(self, starts, errors):
        # errors: (B, non_overlap_length + overlap_length) TD errors of every step in the chunk
        idxs = self.chunk_step_indices(starts)
        new_prios = (errors.abs() + self.eps) ** self.alpha
        self.priorities[idxs] = new_prios


def td_errors(values, targets):
    # values, targets: (B, L)
    return targets - values


if __name__ == "__main__":
    torch.manual_seed(0)
    buf = PERSequenceBuffer(size=200, sequence_length=16, overlap_length=4)
    starts = torch.tensor([0, 40, 80, 120])
    chunk = buf.non_overlap_length + buf.overlap_length
    errors = td_errors(torch.randn(4, chunk), torch.randn(4, chunk))
    buf.update_priorities(starts, errors)

    expected = torch.ones(200)
    for b in range(4):
        for t in range(chunk):
            expected[(starts[b].item() + t) % 200] = (abs(errors[b, t].item()) + buf.eps) ** buf.alpha
    assert torch.allclose(buf.priorities, expected)
    print("ok")
