import{a,b,c,d}from"./app-chunk-HRG5H4WE.js";export{b as language,c as preferred,d as t,a as use};
