// The deck: the cards' colours and values as the server says them (GET /api/rules, filled in by
// rules.js before the page's components start) and the 40 cards they make, named as the server
// names them ("red-5"). Every part of the page that lists the cards takes them from here: the
// page holds no rule of its own.
export const COLOURS = [];
export const VALUES = [];
export const CARDS = [];

export const cardName = (colour, value) => `${colour}-${value}`;
export const cardsOf = (colour) => VALUES.map((v) => cardName(colour, v));
// the trump colour a table starts from: the last colour (purple), as the server lists them
export const lastColour = () => COLOURS[COLOURS.length - 1];

// the arrays filled in place: the modules that imported them see the deck at once
export function setDeck(colours, values) {
  COLOURS.splice(0, COLOURS.length, ...colours);
  VALUES.splice(0, VALUES.length, ...values);
  CARDS.splice(0, CARDS.length, ...COLOURS.flatMap(cardsOf));
}
