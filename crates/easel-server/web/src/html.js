// One `html` tag for every view: htm bound to Preact's h, so views need no build-time JSX.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
