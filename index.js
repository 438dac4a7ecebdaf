// n8n loads the nodes and credentials listed in package.json's "n8n" block; nothing to export here.
module.exports = {};
