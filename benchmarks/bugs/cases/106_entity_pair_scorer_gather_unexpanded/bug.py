import torch
import torch.nn as nn
import torch.nn.functional as F


def gather_entity_states(hidden_states, entity_positions):
    """Pick the encoder state at the first sub-token of every entity mention.

    Args:
        hidden_states (`torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`):
            Output of the text encoder.
        entity_positions (`torch.LongTensor` of shape `(batch_size, num_entities)`):
            Token index of the first sub-token of each entity.

    Returns:
        `torch.FloatTensor` of shape `(batch_size, num_entities, hidden_size)`.
    """
    index = entity_positions.unsqueeze(-1)
    return hidden_states.gather(1, index)


class EntityPairScorer(nn.Module):
    """Scores every entity pair of a document (e.g. coreference) by a scaled dot product.

    Args:
        vocab_size (`int`): size of the token vocabulary.
        hidden_size (`int`): width of the encoder states.
    """

    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.encoder = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.scale = hidden_size ** -0.5
        self.bias = nn.Parameter(torch.zeros(()))

    def forward(self, input_ids, entity_positions, pair_labels=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`)
            entity_positions (`torch.LongTensor` of shape `(batch_size, num_entities)`)
            pair_labels (`torch.FloatTensor` of shape `(batch_size, num_entities, num_entities)`, *optional*)

        Returns:
            logits of shape `(batch_size, num_entities, num_entities)` and the loss when labels are given.
        """
        hidden_states, _ = self.encoder(self.embed(input_ids))
        entities = gather_entity_states(hidden_states, entity_positions)
        logits = entities @ entities.transpose(1, 2) * self.scale + self.bias
        loss = None
        if pair_labels is not None:
            loss = F.binary_cross_entropy_with_logits(logits, pair_labels)
        return logits, loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = EntityPairScorer(vocab_size=50, hidden_size=12)
    input_ids = torch.randint(0, 50, (3, 20))
    entity_positions = torch.tensor([[1, 5, 9, 14], [0, 3, 11, 17], [2, 6, 7, 19]])
    labels = torch.randint(0, 2, (3, 4, 4)).float()
    logits, loss = model(input_ids, entity_positions, labels)
    hidden_states, _ = model.encoder(model.embed(input_ids))
    ref = torch.stack([hidden_states[b, entity_positions[b]] for b in range(3)])
    picked = gather_entity_states(hidden_states, entity_positions)
    print("entity states:", tuple(picked.shape), "expected:", tuple(ref.shape), "logits:", tuple(logits.shape))
    print("entity states match per-entity lookup:", picked.shape == ref.shape and torch.equal(picked, ref))
