import torch
import torch.nn as nn


class PromptClassificationHead(nn.Module):
    """Classification head for prompt-based fine-tuning that combines the [CLS] state with the [MASK] state.

    Args:
        hidden_size (`int`): dimensionality of the encoder hidden states.
        num_labels (`int`): number of classes.
    """

    def __init__(self, hidden_size: int, num_labels: int):
        super().__init__()
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.out_proj = nn.Linear(hidden_size, num_labels)

    def forward(self, hidden_states, mask_positions):
        """
        Args:
            hidden_states (`torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`):
                last hidden states of the encoder.
            mask_positions (`torch.LongTensor` of shape `(batch_size,)`):
                index of the [MASK] token in each sequence.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_labels)`: classification logits.
        """
        index = mask_positions.view(-1, 1, 1)
        mask_states = hidden_states.gather(1, index).squeeze(1)
        features = hidden_states[:, 0] + mask_states
        return self.out_proj(torch.tanh(self.dense(features)))


def encode(batch_tokens, embeddings, mask_token_id):
    """
    Args:
        batch_tokens (`torch.LongTensor` of shape `(batch_size, sequence_length)`)
        embeddings (`nn.Embedding`): token embedding table standing in for the encoder.

    Returns:
        hidden states of shape `(batch_size, sequence_length, hidden_size)` and the [MASK] positions.
    """
    mask_positions = (batch_tokens == mask_token_id).int().argmax(dim=1)
    return embeddings(batch_tokens), mask_positions


if __name__ == "__main__":
    torch.manual_seed(0)
    mask_token_id = 4
    embeddings = nn.Embedding(30, 16)
    head = PromptClassificationHead(hidden_size=16, num_labels=3).eval()
    tokens = torch.tensor([[1, 9, 12, 4, 7, 2], [1, 4, 20, 21, 22, 2], [1, 15, 16, 17, 4, 2]])
    with torch.no_grad():
        hidden, mask_positions = encode(tokens, embeddings, mask_token_id)
        logits = head(hidden, mask_positions)
        ref = torch.stack([
            head.out_proj(torch.tanh(head.dense(hidden[b, 0] + hidden[b, int(mask_positions[b])]))) for b in range(3)
        ])
    print("logits shape:", tuple(logits.shape), "max |diff| vs per-example head:", round((logits - ref).abs().max().item(), 4))
    print("predictions:", logits.argmax(-1).tolist(), "reference:", ref.argmax(-1).tolist())
