import torch
import torch.nn as nn


def fill_mean_token_embeddings(
    all_token_embeddings: torch.Tensor,
    sentence_hidden_states: torch.Tensor,
    word_ids: torch.Tensor,
    token_lengths: torch.Tensor,
) -> torch.Tensor:
    batch_size, max_tokens, embedding_dim = all_token_embeddings.shape
    mask = word_ids >= 0

    # sum up the subtoken embeddings of each word
    all_token_embeddings.scatter_add_(
        1,
        word_ids.clamp(min=0).unsqueeze(-1).expand(-1, -1, embedding_dim),
        sentence_hidden_states * mask.unsqueeze(-1).float(),
    )

    # calculate the mean of subtokens
    subtoken_counts = torch.zeros_like(all_token_embeddings[:, :, 0])
    subtoken_counts.scatter_add_(1, word_ids.clamp(min=0), mask.float())
    all_token_embeddings = torch.where(
        subtoken_counts.unsqueeze(-1) > 0,
        all_token_embeddings / subtoken_counts.unsqueeze(-1),
        torch.zeros_like(all_token_embeddings),
    )
    return all_token_embeddings


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Linear(16, 32).to(torch.bfloat16)  # transformer run in bf16
    subtoken_inputs = torch.randn(2, 9, 16, dtype=torch.bfloat16)
    word_ids = torch.tensor([[-100, 0, 0, 1, 2, 2, 2, -100, -100],
                             [-100, 0, 1, 1, 2, 3, 3, 4, -100]])
    token_lengths = torch.tensor([3, 5])
    with torch.no_grad():
        hidden = encoder(subtoken_inputs)
        out = torch.zeros(2, 5, 32, dtype=hidden.dtype)
        out = fill_mean_token_embeddings(out, hidden, word_ids, token_lengths)
        ref = torch.zeros(2, 5, 32)
        for b in range(2):
            for w in range(int(token_lengths[b])):
                rows = [hidden[b, s].float() for s in range(9) if word_ids[b, s] == w]
                ref[b, w] = torch.stack(rows).mean(0)
    print("max abs diff to loop mean:", (out.float() - ref).abs().max().item())
