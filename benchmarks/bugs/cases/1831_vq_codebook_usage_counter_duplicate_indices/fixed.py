import torch
import torch.nn as nn


class NSVQ(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, discarding_threshold=0.01):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.discarding_threshold = discarding_threshold
        self.codebooks = nn.Parameter(torch.randn(num_embeddings, embedding_dim))
        self.register_buffer("codebooks_used", torch.zeros(num_embeddings, dtype=torch.int32))

    def forward(self, input_data):
        distances = torch.cdist(input_data, self.codebooks)
        min_indices = distances.argmin(dim=1)
        hard_quantized_input = self.codebooks[min_indices]
        random_vector = torch.randn_like(input_data)
        norm_quantization_residual = (input_data - hard_quantized_input).norm(dim=1, keepdim=True)
        norm_random_vector = random_vector.norm(dim=1, keepdim=True)
        vq_error = (norm_quantization_residual / norm_random_vector + 1e-12) * random_vector
        quantized_input = input_data + vq_error
        with torch.no_grad():
            self.codebooks_used.index_add_(0, min_indices, torch.ones_like(min_indices, dtype=torch.int32))
        return quantized_input, min_indices

    def unused_codebooks(self, num_vectors_seen):
        usage_rate = self.codebooks_used.float() / num_vectors_seen
        return (usage_rate < self.discarding_threshold).nonzero().squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vq = NSVQ(num_embeddings=32, embedding_dim=8, discarding_threshold=0.02)
    batches = [torch.randn(256, 8) for _ in range(4)]
    assigned = []
    for x in batches:
        _, idx = vq(x)
        assigned.append(idx)
    seen = sum(x.shape[0] for x in batches)
    dead = vq.unused_codebooks(seen)

    counts = [0] * vq.num_embeddings
    for idx in assigned:
        for k in idx.tolist():
            counts[k] += 1
    ref_counts = torch.tensor(counts, dtype=torch.int32)
    ref_dead = ((ref_counts.float() / seen) < vq.discarding_threshold).nonzero().squeeze(-1)
    assert torch.equal(vq.codebooks_used, ref_counts)
    assert torch.equal(dead, ref_dead)
    print("ok")
